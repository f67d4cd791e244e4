"""The mobile web front end in a real browser, at a phone's size, against the local stack.

Every screen is checked with axe-core in Greek and in English (0 serious or critical
violations), and the main screens are saved to docs/screenshots/ (Greek) for docs/web.md.
"""

from __future__ import annotations

import gzip
import re
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import (
    CHROMIUM,
    PHONE,
    Phone,
    accessible_in_both_languages,
    camera_video,
    create_profile,
    federation_club,
    screenshot,
    sign_in,
    use_language,
)

JS_BUDGET_GZIP = 100 * 1024
# Where an element sits in its table's line (what a live update above the line may move
# is the whole line, not this element within it).
IN_ITS_LINE = """e => {
  const r = e.getBoundingClientRect(), line = e.closest("li").getBoundingClientRect();
  return [r.x - line.x, r.y - line.y, r.width, r.height];
}"""
RUN = uuid.uuid4().hex[:6]  # user names of this run (a stack kept between runs has the last ones)


def _tournament_id(page: Page) -> str:
    match = re.search(r"#/t/([^/]+)/organise", page.url)
    assert match, page.url
    return match.group(1)


def test_a_day_at_the_venue_from_the_phones(phone: Phone, stack: Stack) -> None:
    """a player registers, lands on the waiting list, is promoted and opens the pass;
    the referee checks players in by typed code and marks presence at the table; the organiser
    draws; two players record games
    and confirm; the referee confirms; one appeals and the referee decides; the big-screen board
    follows it all without a reload; the organiser finishes and gets the report."""
    organiser, referee, tv = phone(), phone(), phone()
    anna, babis, chara = phone(), phone(), phone()

    # The organiser signs in, creates the tournament (2 places, one table, 25 euros).
    sign_in(organiser, f"web-organiser-{RUN}", organiser=True)
    create_profile(organiser, "Όλγα Οργανώτρια")
    organiser.goto("/#/new")
    accessible_in_both_languages(organiser, "input[name=name]")
    organiser.locator("input[name=name]").fill("Κύπελλο Πλάκας")
    organiser.locator("input[name=venue]").fill("Καφενείο Το Τάβλι")
    organiser.locator("input[name=city]").fill("Αθήνα")
    organiser.locator("input[name=capacity]").fill("2")
    organiser.locator("input[name=fee]").fill("25")
    organiser.locator("input[name=tables]").fill("1")
    screenshot(organiser, "new-tournament")
    organiser.locator("form button[type=submit]").click()
    organiser.wait_for_url(re.compile(r"#/t/[^/]+/organise$"))
    tid = _tournament_id(organiser)

    # The referee gets a profile; the organiser names them the tournament's referee.
    sign_in(referee, f"web-referee-{RUN}")
    referee_id = create_profile(referee, "Ρένα Διαιτήτρια")
    accessible_in_both_languages(organiser, "input[name=referee]")
    organiser.locator("input[name=referee]").fill(referee_id)
    organiser.get_by_role("button", name="Ορισμός διαιτητή").click()
    expect(organiser.get_by_test_id("referee-message")).to_have_text("Ο διαιτητής ορίστηκε")

    # Three players of one club register for two places: the third is on the waiting list.
    federation_club(stack, "ΟΑ Πλάκας")
    ids = {}
    for page, user, name in (
        (anna, f"web-anna-{RUN}", "Άννα Αναστασίου"),
        (babis, f"web-babis-{RUN}", "Μπάμπης Βλάχος"),
        (chara, f"web-chara-{RUN}", "Χαρά Χατζή"),
    ):
        sign_in(page, user)
        if page is anna:
            accessible_in_both_languages(page, "input[name=name]")
            screenshot(page, "profile")
        ids[name] = create_profile(page, name, "ΟΑ Πλάκας")
        page.goto(f"/#/t/{tid}")
        expect(page.get_by_test_id("fee")).to_have_text("25,00 €")
        page.get_by_role("button", name="Εγγραφή").click()
        expect(page.get_by_test_id("my-entry")).to_be_visible()
    expect(anna.get_by_test_id("my-entry")).to_have_text("Είστε εγγεγραμμένος/η")
    expect(chara.get_by_test_id("my-entry")).to_have_text("Λίστα αναμονής: θέση 1")
    accessible_in_both_languages(chara, "[data-testid=my-entry]")
    screenshot(chara, "tournament-waiting-list")

    # Babis withdraws: Chara is promoted, and told so.
    babis.get_by_role("button", name="Αποχώρηση").click()
    expect(babis.get_by_role("button", name="Εγγραφή")).to_be_visible()
    stack.drain()
    chara.reload()
    expect(chara.get_by_test_id("my-entry")).to_have_text("Είστε εγγεγραμμένος/η")
    chara.goto("/#/notifications")
    expect(chara.get_by_text("Πήρατε θέση!")).to_be_visible()
    accessible_in_both_languages(chara, ".card")
    screenshot(chara, "notifications")

    # Chara's check-in pass: full screen QR and her Tavla ID in large type.
    chara.goto("/#/pass")
    expect(chara.locator(".qr svg")).to_be_visible()
    expect(chara.get_by_test_id("pass-code")).to_have_text(ids["Χαρά Χατζή"])
    accessible_in_both_languages(chara, ".qr svg")
    screenshot(chara, "pass")

    # The referee checks both players in by typing their codes; nobody is missing after.
    referee.goto(f"/#/t/{tid}/desk")
    expect(referee.get_by_role("heading", name="Λείπουν (2)")).to_be_visible()
    accessible_in_both_languages(referee, "[data-testid=missing] li")
    for name in ("Άννα Αναστασίου", "Χαρά Χατζή"):
        referee.locator("input[name=checkin]").fill(ids[name].lower())
        referee.locator("form:has(input[name=checkin]) button[type=submit]").click()
        expect(referee.get_by_test_id("desk-message")).to_have_text(f"Έγινε check-in: {name}")
    expect(referee.get_by_role("heading", name="Λείπουν (0)")).to_be_visible()

    # The venue TV shows the board and follows the day by itself.
    tv.goto(f"/#/t/{tid}/tv")
    expect(tv.get_by_test_id("no-draw")).to_have_text("Δεν έχει γίνει κλήρωση ακόμη")
    accessible_in_both_languages(tv, "[data-testid=no-draw]")

    # The organiser draws: the final is called to table 1; the TV shows it without a reload.
    organiser.get_by_role("button", name="Κλήρωση επόμενου γύρου").click()
    expect(organiser.get_by_test_id("organise-message")).to_contain_text("Κληρώθηκε ο γύρος 1")
    stack.drain()
    expect(tv.get_by_test_id("tables")).to_contain_text("Άννα Αναστασίου", timeout=20_000)
    screenshot(tv, "board-big-screen")

    # Both players open their match: table 1, the opponent, the call's countdown.
    for page, other in ((anna, "Χαρά Χατζή"), (chara, "Άννα Αναστασίου")):
        page.goto(f"/#/t/{tid}/match")
        expect(page.get_by_test_id("table")).to_have_text("1")
        expect(page.get_by_test_id("opponent")).to_have_text(other)
    expect(anna.get_by_role("timer")).to_contain_text("Στο τραπέζι σε")
    accessible_in_both_languages(anna, "[data-testid=opponent]")
    screenshot(anna, "my-match")
    chara_present = referee.get_by_role("button", name="Παρών: Χαρά Χατζή")
    expect(chara_present).to_be_visible(timeout=20_000)
    before = chara_present.evaluate(IN_ITS_LINE)
    anna.get_by_role("button", name="Είμαι στο τραπέζι").click()
    expect(anna.get_by_role("timer")).to_have_count(0)
    # Chara is at the table too: the referee marks her present from the desk. Anna's own mark
    # shows on the desk in her buttons' place, and Chara's button has not moved in the table's
    # line: a tap made as the mark lands still reaches it.
    referee.get_by_role("button", name="Ανανέωση").click()
    anna_at_desk = referee.locator(".presence-side", has_text="Άννα Αναστασίου")
    expect(anna_at_desk.get_by_test_id("marked")).to_have_text("✓ στο τραπέζι")
    assert chara_present.evaluate(IN_ITS_LINE) == before
    chara_present.scroll_into_view_if_needed()
    screenshot(referee, "desk-presence")
    # While the mark is on its way, the desk's last message stays where it is: nothing above
    # the tables moves (a message cleared at the tap moved every line below it).
    held: list[Route] = []
    referee.route("**/matches/*/presence", lambda route: held.append(route))
    chara_present.click()
    for _ in range(100):
        if held:
            break
        referee.wait_for_timeout(50)
    expect(referee.get_by_test_id("desk-message")).to_have_text("Έγινε check-in: Χαρά Χατζή")
    assert chara_present.evaluate(IN_ITS_LINE) == before
    expect(chara_present).to_be_disabled()  # on its way: a second tap sends nothing
    held[0].continue_()
    referee.unroute("**/matches/*/presence")
    expect(referee.get_by_test_id("desk-message")).to_have_text("Σημειώθηκε παρουσία")
    expect(referee.get_by_role("button", name="Παρών: Χαρά Χατζή")).to_have_count(0)

    # Anna records the games on the screen she has (the referee's mark changed the match
    # meanwhile, but no game was recorded: her entry is made on the new version): an 11-point
    # final, 8 then 4 with the cube; both players confirm the score.
    for cube, total in (("8", 8), ("4", 11)):  # 12 points won, 11 (the length) on the sheet
        anna.locator("select").select_option(cube)
        anna.get_by_role("button", name="Κέρδισε: Άννα Αναστασίου").click()
        live = re.compile(rf"\b(0 – {total}|{total} – 0)\b")
        expect(anna.get_by_test_id("live-score")).to_contain_text(live)
    # Anna declares the score the games made; Chara sees Anna's declaration and agrees with it.
    anna.reload()
    anna.get_by_role("button", name="Επιβεβαίωση τελικού σκορ").click()
    expect(anna.get_by_test_id("my-declaration")).to_contain_text(re.compile(r"Δηλώσατε (11–0|0–11)"))
    expect(anna.get_by_text("Αναμένεται επικύρωση")).to_be_visible()
    expect(anna.get_by_role("button", name=re.compile("Κέρδισε"))).to_have_count(0)
    theirs = chara.get_by_test_id("their-declaration")
    expect(theirs).to_contain_text(re.compile(r"Άννα Αναστασίου: δήλωσε (11–0|0–11)"))
    theirs.get_by_role("button", name="Συμφωνώ").click()
    expect(chara.get_by_text("Αναμένεται επικύρωση")).to_be_visible()

    # The referee confirms: the result is official, and the TV shows it without a reload.
    confirm = referee.get_by_role("button", name="Επικύρωση αποτελέσματος")
    expect(confirm).to_be_visible()
    declarations = referee.get_by_test_id("declarations")
    expect(declarations).to_contain_text(re.compile(r"Άννα Αναστασίου: δήλωσε (11–0|0–11)"))
    expect(declarations).to_contain_text(re.compile(r"Χαρά Χατζή: δήλωσε (11–0|0–11)"))
    confirm.click()
    screenshot(referee, "referee-desk")
    referee.get_by_role("button", name="Ναι: Επικύρωση αποτελέσματος").click()
    expect(referee.get_by_test_id("desk-message")).to_have_text("Το αποτέλεσμα είναι επίσημο")
    # the TV: the winner marked, each player's points on their line
    tv_result = tv.get_by_test_id("results").locator("li").first
    expect(tv_result.locator(".winner")).to_contain_text("Άννα Αναστασίου", timeout=20_000)
    expect(tv_result.locator(".winner .tv-points")).to_have_text("11")

    # Chara appeals within the window; the referee dismisses the appeal with reasons.
    chara.reload()
    appeal = chara.get_by_role("button", name=re.compile(r"Ένσταση \(απομένουν 1?\d:\d\d\)"))
    expect(appeal).to_be_visible()
    appeal.click()
    chara.get_by_label("Τι προσβάλλετε και γιατί").fill("Ο κύβος γύρισε χωρίς να το δω.")
    chara.get_by_role("button", name="Υποβολή ένστασης").click()
    expect(chara.get_by_text("Η ένσταση καταχωρίστηκε")).to_be_visible()
    referee.get_by_role("button", name="Ανανέωση").click()
    expect(referee.get_by_role("heading", name="Ενστάσεις (1)")).to_be_visible()
    form = referee.get_by_test_id("appeal")
    expect(form).to_contain_text("Ο κύβος γύρισε")
    accessible_in_both_languages(referee, "[data-testid=appeal]")
    form.get_by_label("Αιτιολογία").fill("Ο κύβος γυρίστηκε σωστά, μπροστά στη διαιτησία.")
    expect(form.get_by_test_id("appellant")).to_have_text("Ένσταση από Χαρά Χατζή για το σκορ")
    form.get_by_role("button", name="Απόφαση").click()
    form.get_by_role("button", name="Ναι: Απόφαση").click()
    expect(referee.get_by_role("heading", name="Ενστάσεις (0)")).to_be_visible()

    # The organiser finishes the tournament and fetches the federation report.
    organiser.get_by_role("button", name="Λήξη τουρνουά").click()
    organiser.get_by_role("button", name="Ναι: Λήξη τουρνουά").click()
    expect(organiser.get_by_test_id("organise-message")).to_have_text("Το τουρνουά έληξε")
    organiser.get_by_role("button", name="Αναφορά ομοσπονδίας").click()
    expect(organiser.get_by_role("link", name="Λήψη αναφοράς (CSV)")).to_be_visible()
    expect(tv.get_by_role("status")).to_contain_text("ολοκληρώθηκε", timeout=20_000)


def test_public_screens_and_the_money_and_season_entries(phone: Phone, stack: Stack) -> None:
    """the calendar and sign-in are accessible in both languages; the
    calendar's links to payments and the season open their screens (payments ask a visitor to
    sign in; the season's rating list is public)."""
    page = phone()
    page.goto("/")
    expect(page.get_by_role("heading", name="Ημερολόγιο τουρνουά")).to_be_visible()
    accessible_in_both_languages(page, "h1")
    screenshot(page, "calendar")
    page.get_by_role("button", name="Switch to English").click()
    expect(page.get_by_role("heading", name="Tournament calendar")).to_be_visible()
    page.get_by_role("button", name="Αλλαγή σε ελληνικά").click()
    page.goto("/#/signin")
    accessible_in_both_languages(page, "input[name=user]")
    page.goto("/")
    page.get_by_role("link", name="Πληρωμές").click()
    expect(page.get_by_text("Συνδεθείτε για να συνεχίσετε.")).to_be_visible()
    page.goto("/")
    page.get_by_role("link", name="Σεζόν και βαθμολογία").click()
    expect(page.get_by_role("heading", name="Πανελλήνια βαθμολογία")).to_be_visible()
    accessible_in_both_languages(page, "h1")


def test_the_bottom_menu_fits_a_360_px_phone_in_every_language(phone: Phone, stack: Stack) -> None:
    """Every item of the bottom menu is whole on a 360 px phone, in Greek, English and Italian:
    the menu is fixed to the screen, so a word too long for its column is cut at the edge
    (the page itself does not scroll sideways to show it)."""
    page = phone()
    page.goto("/")
    for lang in ("el", "en", "it"):
        use_language(page, lang, "nav.bottom a")
        links = page.locator("nav.bottom a")
        expect(links).to_have_count(4)
        for link in links.all():
            box = link.bounding_box()
            assert box is not None
            text = link.inner_text()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{lang}: {text} at {box}"
            # the word fits its box: nothing of it hangs out, cut by the next item or the edge
            assert link.evaluate("a => a.scrollWidth <= a.clientWidth"), f"{lang}: {text} is cut"
            assert box["height"] >= 48, f"{lang}: {text} is a small target"
    use_language(page, "el", "nav.bottom a")
    screenshot(page, "bottom-menu")


def test_the_screen_follows_an_address_changed_while_the_page_first_draws(phone: Phone, stack: Stack) -> None:
    """A link followed (or an address typed) the moment a page has loaded shows its screen,
    not the one the page started on: each time, the tournament page is reloaded and the sign-in
    address opened at once. A screen that began listening for the address only after its first
    paint missed the change 2 to 5 times in 40 on a busy machine and stayed on the tournament."""
    tid = tournament(Client(stack), f"web-address-org-{RUN}", name="Τουρνουά διευθύνσεων")
    page = phone()
    stale = []
    for attempt in range(40):
        page.goto(f"/#/t/{tid}")
        expect(page.get_by_role("heading", name="Τουρνουά διευθύνσεων")).to_be_visible()
        page.reload()
        page.goto("/#/signin")
        try:
            page.locator("input[name=user]").wait_for(timeout=5_000)
        except PlaywrightTimeout:
            stale.append((attempt, page.evaluate("document.querySelector('h1')?.innerText")))
    assert stale == [], f"the address said #/signin, the screen showed: {stale}"


def test_first_screen_javascript_is_under_100_kb_gzipped(site: Path) -> None:
    """the player's first screen loads at most 100 KB of JavaScript, gzipped."""
    index = (site / "index.html").read_text()
    scripts = re.findall(r'<script[^>]+src="/([^"]+\.js)"', index)
    preloads = re.findall(r'<link rel="modulepreload"[^>]+href="/([^"]+\.js)"', index)
    assert scripts
    size = sum(len(gzip.compress((site / name).read_bytes(), 9)) for name in scripts + preloads)
    print(f"first screen JavaScript: {size} bytes gzipped")
    assert size <= JS_BUDGET_GZIP


def _player_on_a_phone(
    phone: Phone, stack: Stack, who: str, player: str, **settings: Any
) -> tuple[str, Page, str]:
    """A tournament made over HTTP by its organiser, and a player signed in on a phone with a
    profile: (tournament id, the phone, the player's Tavla ID)."""
    tid = tournament(Client(stack), f"web-{who}-org-{RUN}", **settings)
    page = phone()
    sign_in(page, f"web-{who}-{RUN}")
    return tid, page, create_profile(page, player)


def test_the_pass_and_the_last_board_show_without_signal(phone: Phone, stack: Stack) -> None:
    """PWA: after one visit, with the network cut, the app shell, the check-in pass
    and the last known board still show (a basement venue)."""
    tid, page, tavla_id = _player_on_a_phone(phone, stack, "offline", "Ντίνα Ντόκου", name="Υπόγειο Open")
    page.goto(f"/#/t/{tid}")
    page.get_by_role("button", name="Εγγραφή").click()
    expect(page.get_by_test_id("my-entry")).to_have_text("Είστε εγγεγραμμένος/η")
    # another entry while the page is open: its delta makes the screens read the board under
    # the delta's cache key (`?v=`), which must not hide the kept board from a read without signal
    client, other = Client(stack), f"web-offline-other-{RUN}"
    assert client.call("POST", "/players", {"name": "Άλλος Παίκτης"}, user=other).status == 201
    with page.expect_request(lambda request: request.url.endswith("/entries")):
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=other).status == 201
        stack.drain()
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.goto("/#/pass")
    expect(page.get_by_test_id("pass-code")).to_have_text(tavla_id)
    with page.expect_request(lambda request: "/board?v=" in request.url):
        page.goto(f"/#/t/{tid}/board")
    expect(page.get_by_role("heading", name="Υπόγειο Open")).to_be_visible()

    page.context.set_offline(True)
    try:
        page.goto("/#/pass")
        page.reload()
        expect(page.get_by_test_id("pass-code")).to_have_text(tavla_id)
        expect(page.locator(".qr svg")).to_be_visible()
        page.goto(f"/#/t/{tid}/board")
        expect(page.get_by_role("heading", name="Υπόγειο Open")).to_be_visible()
    finally:
        page.context.set_offline(False)


def test_a_no_show_is_forfeited_as_the_clock_moves(phone: Phone, stack: Stack) -> None:
    """R6.1: the present player sees the table-call countdown, says they are at the
    table; when the platform clock passes the call + 10 minutes the absent opponent forfeits
    and the player's phone shows the official result by forfeit."""
    client = Client(stack)
    organiser = f"web-noshow-org-{RUN}"
    tid, page, here = _player_on_a_phone(
        phone, stack, "noshow", "Παρών Παίκτης", name="Ρολόι Open", capacity=2
    )
    absent_user = f"web-noshow-away-{RUN}"
    assert client.call("POST", "/players", {"name": "Απών Παίκτης"}, user=absent_user).status == 201
    for user in (f"web-noshow-{RUN}", absent_user):
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
    absent = str(client.call("GET", "/me", user=absent_user).body["tavla_id"])
    for tavla_id in (here, absent):
        reply = client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=organiser)
        assert reply.status == 200, reply.body
    drawn = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser, groups=("organisers",))
    assert drawn.status == 201, drawn.body
    stack.drain()
    page.goto(f"/#/t/{tid}/match")
    expect(page.get_by_role("timer")).to_contain_text(re.compile(r"Στο τραπέζι σε \d+:\d\d"))
    page.get_by_role("button", name="Είμαι στο τραπέζι").click()
    expect(page.get_by_role("timer")).to_have_count(0)

    called = datetime.fromisoformat(drawn.body["pairings"][0]["called_at"])
    stack.advance((called - datetime.fromisoformat(stack.now())).total_seconds() + 601)
    stack.drain()
    page.get_by_role("button", name="Ανανέωση").click()
    expect(page.get_by_test_id("match-state")).to_contain_text("επίσημο")
    expect(page.get_by_test_id("result")).to_contain_text("χωρίς αγώνα: δεν προσήλθε ο αντίπαλος")


def test_the_referee_checks_a_player_in_by_scanning_the_pass_with_the_camera(
    browser: Browser, stack: Stack, tmp_path: Path
) -> None:
    """R4.1: the referee's phone scans the pass's QR code with its camera (Chromium's
    fake camera playing a video made from the player's pass) and the player is checked in."""
    client = Client(stack)
    organiser, referee, player = (f"web-scan-{who}-{RUN}" for who in ("org", "ref", "player"))
    tid = tournament(client, organiser, name="Κάμερα Open", capacity=8)
    referee_id = str(client.call("POST", "/players", {"name": "Ρ Διαιτητής"}, user=referee).body["tavla_id"])
    staff = {"staff": [{"tavla_id": referee_id, "role": "referee"}]}
    assert client.call("PUT", f"/tournaments/{tid}/staff", staff, user=organiser).status == 200
    assert client.call("POST", "/players", {"name": "Σοφία Σκανάρη"}, user=player).status == 201
    assert client.call("POST", f"/tournaments/{tid}/registrations", user=player).status == 201
    token = str(client.call("GET", "/me/checkin-pass", user=player).body["token"])
    video = camera_video(token, tmp_path / "pass.y4m")

    camera = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        context = camera.new_context(
            base_url=stack.url, viewport=PHONE, is_mobile=True, has_touch=True, locale="el-GR"
        )
        context.grant_permissions(["camera"])
        context.set_default_timeout(15_000)
        page = context.new_page()
        sign_in(page, referee)
        page.goto(f"/#/t/{tid}/desk")
        expect(page.get_by_role("heading", name="Λείπουν (1)")).to_be_visible()
        page.get_by_role("button", name="Σάρωση QR με την κάμερα").click()
        expect(page.get_by_test_id("desk-message")).to_have_text("Έγινε check-in: Σοφία Σκανάρη")
        expect(page.get_by_role("heading", name="Λείπουν (0)")).to_be_visible()
    finally:
        camera.close()
