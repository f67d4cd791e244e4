// The referee's phone: check-in (typed Tavla ID, phone or pass; the camera where the browser
// has BarcodeDetector), who is missing, presence at the tables with each call's deadline,
// results to confirm (disputes first, each player's declaration named), appeals (who appealed,
// against what). Every act that cannot be undone is asked twice. It follows the day by itself.
import { useRef, useState } from "preact/hooks";
import { api, problem, type AppealView, type MatchDetail, type MatchView, type Schemas } from "../api/client";
import { Alert, ConfirmButton, Note, Stale, Status } from "../ui/widgets";
import { channelsOf, useLive } from "../live/use-live";
import { clock } from "../format";
import { roundName } from "../rounds";
import { t } from "../i18n";
import { nothing, useLoad } from "../load";
import { MatchLine } from "./board";
import { HallDesk } from "../ui/hall-desk";
import { PhotoUpload, PositionPhoto } from "../ui/position-photo";
import { platformNow } from "../platform-clock";
import { useAction } from "../ui/action";

type Named = { tavla_id: string } | { phone: string } | { pass: string };
/** A referee's act on the day: the call, then the message it shows when it succeeded. */
type Act = (call: () => Promise<{ error?: unknown }>, ok: string) => Promise<void>;

/** What the referee typed: a Tavla ID (7 characters), a phone number, or a pass's code. */
export function checkinBody(typed: string): Named {
  const value = typed.trim();
  if (/^[A-Za-z0-9]{7}$/.test(value)) return { tavla_id: value.toUpperCase() };
  if (/^\+?[\d\s-]{6,}$/.test(value)) return { phone: value };
  return { pass: value };
}

export function Desk({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const entries = useLoad(() => api.GET("/tournaments/{tournament_id}/entries", path), [id]);
  const board = useLoad(() => api.GET("/tournaments/{tournament_id}/board", path), [id]);
  const audit = useLoad(() => api.GET("/tournaments/{tournament_id}/audit", path), [id]);
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const committee = tour.data?.rules.appeal_above_referee === "committee";
  const [typed, setTyped] = useState("");
  const reload = () => {
    entries.reload();
    board.reload();
    audit.reload();
  };
  const live = useLive([channelsOf.tournament(id), channelsOf.staff(id)], reload);
  const callMs = (tour.data?.rules.table_call_minutes ?? 0) * 60000;
  const action = useAction();
  async function checkIn(body: Named) {
    const done = await action.run(
      () => api.POST("/tournaments/{tournament_id}/checkins", { ...path, body }),
      (d) => t(d.already_checked_in ? "already_checked_in" : "checked_in_ok", { name: d.name }),
    );
    if (done) setTyped("");
    entries.reload();
  }
  async function act(call: () => Promise<{ error?: unknown }>, ok: string) {
    await action.run(call, ok);
    reload();
  }
  const missing = entries.data?.main.filter((e) => !e.checked_in && e.status === "registered") ?? [];
  const matches: MatchView[] =
    board.data?.brackets.flatMap((b) => b.rounds.flatMap((r) => r.matches)) ?? [];
  // disputes first: a referee's decision is waited for there
  const toConfirm = [
    ...matches.filter((m) => m.state === "disputed"),
    ...matches.filter((m) => m.state === "finished"),
  ];
  const absent = matches.filter((m) => m.state === "called");
  const lodged = new Map<string, string>();
  for (const r of [...(audit.data?.records ?? [])].reverse()) {
    const appeal = String((r.details as Record<string, unknown> | undefined)?.appeal_id ?? "");
    if (r.action === "appeal_lodged" && appeal) lodged.set(appeal, String(r.details?.match_id ?? ""));
    if (r.action === "appeal_decided" && appeal) lodged.delete(appeal);
  }
  return (
    <section>
      <h1>{t("referee_desk")}</h1>
      <Stale since={live.staleSince} />
      <a class="button secondary" href={`#/t/${id}/till`}>
        {t("till_title")}
      </a>
      {/* beside the till, above the lists: a link below them moves down as they fill */}
      <a class="button secondary" href={`#/t/${id}/conduct`}>
        {t("conduct_title")}
      </a>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void checkIn(checkinBody(typed));
        }}
      >
        <label>
          {t("checkin_typed")}
          <input
            name="checkin"
            autocomplete="off"
            autocapitalize="characters"
            required
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <button type="submit">{t("check_in")}</button>
        <Scanner onCode={(pass) => void checkIn({ pass })} />
      </form>
      <Note key={`note-${action.said}`} text={action.message} testid="desk-message" />
      <Alert key={`alert-${action.said}`} text={action.error} />
      <Status error={entries.error} />
      <h2>{t("missing", { n: missing.length })}</h2>
      <ul class="entries" data-testid="missing">
        {missing.map((e) => (
          <li key={e.tavla_id}>
            <span>
              {e.name} · {e.tavla_id}
            </span>
            <button type="button" class="small" onClick={() => void checkIn({ tavla_id: e.tavla_id })}>
              {t("check_in")}
            </button>
          </li>
        ))}
      </ul>
      {absent.length > 0 && <h2>{t("at_tables")}</h2>}
      <ul class="tables">
        {absent.map((m) => (
          <li key={m.id} class="table">
            <span class="num">{m.table}</span>
            <MatchLine match={m} />
            {m.called_at && callMs > 0 && (
              <span class="deadline" data-testid="deadline">
                {t("no_show_at", { time: clock(new Date(Date.parse(m.called_at) + callMs).toISOString()) })}
              </span>
            )}
            <PresenceMarks match={m} act={act} />
          </li>
        ))}
      </ul>
      <HallDesk id={id} matches={matches} entrants={entries.data?.main.filter((e) => e.status === "registered") ?? []} tick={board.data} />
      <Adjournments matches={matches} act={act} />
      <h2>{t("to_confirm", { n: toConfirm.length })}</h2>
      <ul class="tables" data-testid="to-confirm">
        {toConfirm.map((m) => (
          <ToConfirm key={m.id} m={m} onConfirm={(body) => act(() => api.POST("/matches/{match_id}/confirm", { params: { path: { match_id: m.id } }, body }), t("confirmed"))} />
        ))}
      </ul>
      <h2>{t("appeals", { n: lodged.size })}</h2>
      {[...lodged.keys()].map((appeal) => (
        <Appeal key={appeal} id={appeal} committee={committee} onDecided={reload} />
      ))}
      <button type="button" class="secondary" onClick={reload}>
        {t("refresh")}
      </button>
    </section>
  );
}

/** Each player of a called match in a block of their own: the name, then on one line the two
 * marks while they are not at the table, or what was marked, as tall as the marks were. A
 * mark that lands as the referee taps the other player's block never moves it under the
 * finger. The mark on its way shows as busy (the desk's message changes only at the answer). */
function PresenceMarks({ match: m, act }: { match: MatchView; act: Act }) {
  const [sending, setSending] = useState("");
  return (
    <div class="presence">
      {(["home", "away"] as const)
        .filter((side) => m[side])
        .map((side) => {
          const player = m[side]!;
          const name = player.name ?? player.tavla_id;
          const marked = m.present?.includes(side) ? "present" : m.excused?.includes(side) ? "excused" : null;
          return (
            <div class="presence-side" key={side}>
              <span class="who">{name}</span>
              <div class="marks">
                {marked ? (
                  <span class="marked" data-testid="marked">
                    {t(marked === "present" ? "side_present" : "side_excused")}
                  </span>
                ) : (
                  (["present", "excused"] as const).map((how) => (
                    <button
                      type="button"
                      class={how === "present" ? "small" : "small secondary"}
                      key={how}
                      aria-label={t(how === "present" ? "mark_present" : "mark_excused", { name })}
                      disabled={sending !== ""}
                      aria-busy={sending === `${side}-${how}`}
                      onClick={() => {
                        setSending(`${side}-${how}`);
                        void act(
                          () =>
                            api.POST("/matches/{match_id}/presence", {
                              params: { path: { match_id: m.id } },
                              body: { tavla_id: player.tavla_id, [how]: true },
                            }),
                          t(how === "present" ? "marked_present" : "marked_excused"),
                        ).finally(() => setSending(""));
                      }}
                    >
                      {t(how === "present" ? "side_mark_present" : "side_mark_excused")}
                    </button>
                  ))
                )}
              </div>
            </div>
          );
        })}
    </div>
  );
}

/** A result to confirm: the live score, each player's declaration by name, and for a dispute
 * the declaration the referee makes official (asked twice: an official result moves the
 * bracket on). */
function ToConfirm({ m, onConfirm }: { m: MatchView; onConfirm: (body: Schemas["FinalScore"] | null) => void }) {
  const name = (side: "home" | "away") => m[side]?.name ?? m[side]?.tavla_id ?? "—";
  const declared = m.declared ?? [];
  const disputed = m.state === "disputed";
  const score = (d: { home_points: number; away_points: number }) => `${d.home_points}–${d.away_points}`;
  return (
    <li class={disputed ? "table disputed" : "table"} data-testid={disputed ? "dispute" : "agreed"}>
      <span class="match">
        <span>
          {roundName(m)}
          {m.table ? ` · ${t("table")} ${m.table}` : ""}: {name("home")} – {name("away")}
        </span>
        <span class="state">{t(`mstate_${m.state}` as "mstate_finished")}</span>
      </span>
      <ul class="plain declarations" data-testid="declarations">
        {declared.length === 0 && <li>{t("no_declarations", { score: `${m.score?.[0] ?? 0}–${m.score?.[1] ?? 0}` })}</li>}
        {declared.map((d) => (
          <li key={d.side}>
            {t("declared_by", { name: name(d.side), score: score(d) })}
            {d.at ? ` · ${clock(d.at)}` : ""}
          </li>
        ))}
      </ul>
      {disputed ? (
        declared.map((d) => (
          <ConfirmButton
            key={d.side}
            label={t("make_official", { score: score(d) })}
            question={t("confirm_question", { home: name("home"), away: name("away"), score: score(d) })}
            onConfirm={() => onConfirm({ home_points: d.home_points, away_points: d.away_points })}
          />
        ))
      ) : (
        <ConfirmButton
          label={t("confirm_result")}
          question={t("confirm_question", {
            home: name("home"),
            away: name("away"),
            score: declared[0] ? score(declared[0]) : `${m.score?.[0] ?? 0}–${m.score?.[1] ?? 0}`,
          })}
          onConfirm={() => onConfirm(null)}
        />
      )}
    </li>
  );
}

function Appeal({ id, committee, onDecided }: { id: string; committee: boolean; onDecided: () => void }) {
  const appeal = useLoad(() => api.GET("/appeals/{appeal_id}", { params: { path: { appeal_id: id } } }), [id]);
  const matchId = appeal.data?.match_id;
  const match = useLoad(
    () => (matchId ? api.GET("/matches/{match_id}", { params: { path: { match_id: matchId } } }) : nothing<MatchDetail>()),
    [matchId],
  );
  const [reasoning, setReasoning] = useState("");
  const [outcome, setOutcome] = useState<"upheld" | "dismissed">("dismissed");
  const [winner, setWinner] = useState("");
  const [members, setMembers] = useState("");
  const [votes, setVotes] = useState<boolean[]>([]);
  const [error, setError] = useState("");
  const a: AppealView | undefined = appeal.data;
  if (!a) return <Status loading={appeal.loading} error={appeal.error} />;
  const m = match.data;
  const who = (tavla: string) => (m?.home?.tavla_id === tavla ? m.home.name : m?.away?.tavla_id === tavla ? m.away.name : null) ?? tavla;
  const memberIds = members.split(/[\s,]+/).filter(Boolean).map((x) => x.toUpperCase());
  const [asking, setAsking] = useState(false);
  async function decide(e: Event) {
    e.preventDefault();
    if (!asking) {
      setAsking(true);
      return;
    }
    setAsking(false);
    setError("");
    const new_result = winner ? { winner } : null;
    const body = committee
      ? { reasoning, new_result, committee: { members: memberIds, votes: memberIds.map((_, i) => votes[i] ?? false) } }
      : { reasoning, outcome, new_result: outcome === "upheld" ? new_result : null };
    const answer = await api.POST("/appeals/{appeal_id}/decision", { params: { path: { appeal_id: id } }, body });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    onDecided();
  }
  return (
    <form class="card" onSubmit={decide} data-testid="appeal">
      <p data-testid="appellant">
        {t("appeal_by", { name: who(a.appellant), kind: t(`appeal_kind_${a.kind}` as "appeal_kind_score") })}
      </p>
      <p>
        <strong>{a.statement}</strong>
      </p>
      {m && (
        <p class="small">
          {roundName(m)}: {m.home?.name} – {m.away?.name}
          {m.result && ` · ${m.result.home_points}–${m.result.away_points}`}
        </p>
      )}
      {committee ? (
        <fieldset>
          <legend>{t("committee")}</legend>
          <label>
            {t("committee_members")}
            <input value={members} onInput={(e) => setMembers(e.currentTarget.value)} autocapitalize="characters" />
          </label>
          {memberIds.map((member, i) => (
            <label class="check" key={member}>
              <input
                type="checkbox"
                checked={votes[i] ?? false}
                onChange={(e) => {
                  const next = [...votes];
                  next[i] = e.currentTarget.checked;
                  setVotes(next);
                }}
              />
              {t("votes_to_overturn", { member })}
            </label>
          ))}
        </fieldset>
      ) : (
        <fieldset>
          <legend>{t("decision")}</legend>
          <label class="check">
            <input type="radio" name={`o-${id}`} checked={outcome === "dismissed"} onChange={() => setOutcome("dismissed")} />
            {t("dismissed")}
          </label>
          <label class="check">
            <input type="radio" name={`o-${id}`} checked={outcome === "upheld"} onChange={() => setOutcome("upheld")} />
            {t("upheld")}
          </label>
        </fieldset>
      )}
      {m && (committee || outcome === "upheld") && (
        <label>
          {t("new_winner")}
          <select value={winner} onChange={(e) => setWinner(e.currentTarget.value)}>
            <option value="">{t("result_unchanged")}</option>
            {(["home", "away"] as const).map((side) =>
              m[side] ? (
                <option key={side} value={m[side]!.tavla_id}>
                  {m[side]!.name ?? m[side]!.tavla_id}
                </option>
              ) : null,
            )}
          </select>
        </label>
      )}
      <label>
        {t("reasoning")}
        <textarea required value={reasoning} onInput={(e) => setReasoning(e.currentTarget.value)} />
      </label>
      {asking ? (
        <div class="confirm" role="alertdialog" aria-label={t("decide")}>
          <p>{t("decide_question")}</p>
          <div class="two">
            <button type="submit" class="warn">
              {t("yes_do_it", { what: t("decide") })}
            </button>
            <button type="button" class="secondary" onClick={() => setAsking(false)}>
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : (
        <button type="submit">{t("decide")}</button>
      )}
      <Alert text={error} />
    </form>
  );
}

/** Scan a pass's QR with the phone's camera: the browser's BarcodeDetector where it has one
 * (Android, macOS), else jsQR on the video's frames, loaded only when the referee scans. */
function Scanner({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [on, setOn] = useState(false);
  const [failed, setFailed] = useState("");
  if (!navigator.mediaDevices?.getUserMedia) return null;
  async function start() {
    setFailed("");
    setOn(true);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    } catch {
      setOn(false);
      setFailed(t("camera_refused"));
      return;
    }
    const el = video.current!;
    el.srcObject = stream;
    await el.play();
    const read = await reader();
    const stop = () => {
      stream.getTracks().forEach((track) => track.stop());
      setOn(false);
    };
    const scan = async () => {
      if (!stream.active) return;
      const found = el.videoWidth ? await read(el).catch(() => null) : null;
      if (found) {
        stop();
        onCode(found);
      } else setTimeout(() => void scan(), 150);
    };
    void scan();
  }
  return (
    <>
      <button type="button" class="secondary" onClick={() => void start()} disabled={on}>
        {t("scan_qr")}
      </button>
      <Alert text={failed} />
      <video ref={video} class={on ? "scanner" : "hidden"} muted playsInline aria-hidden="true" />
    </>
  );
}

type Read = (video: HTMLVideoElement) => Promise<string | null>;

async function reader(): Promise<Read> {
  type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
  type DetectorClass = (new (o: object) => Detector) & { getSupportedFormats(): Promise<string[]> };
  const Native = (globalThis as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (Native && (await Native.getSupportedFormats()).includes("qr_code")) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (v) => (await detector.detect(v))[0]?.rawValue ?? null;
  }
  const jsQR = (await import("jsqr")).default;
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  return async (v) => {
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    context.drawImage(v, 0, 0);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height)?.data ?? null;
  };
}

/** Staff adjourn a match being played (a reason, a deadline to resume, the position's photo from
 * the phone's camera) and resume an adjourned one: it is called to the first free table with its
 * score as it was. */
function Adjournments(props: { matches: MatchView[]; act: Act }) {
  const { matches, act } = props;
  const [reason, setReason] = useState("");
  const [hours, setHours] = useState(2);
  const [photos, setPhotos] = useState<Record<string, string>>({});
  const playing = matches.filter((m) => m.state === "playing");
  const adjourned = matches.filter((m) => m.state === "adjourned");
  if (playing.length === 0 && adjourned.length === 0) return null;
  return (
    <section data-testid="adjournments">
      <h2>{t("adjourn")}</h2>
      <label>
        {t("adjourn_reason")}
        <input name="adjourn-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </label>
      <label>
        {t("adjourn_resume_by")}
        <select value={hours} onChange={(e) => setHours(Number(e.currentTarget.value))}>
          {[1, 2, 4, 12, 24].map((h) => (
            <option key={h} value={h}>
              {clock(new Date(platformNow() + h * 3_600_000).toISOString())}
            </option>
          ))}
        </select>
      </label>
      <ul class="tables">
        {playing.map((m) => (
          <li key={m.id} class="table">
            <span class="num">{m.table}</span>
            <MatchLine match={m} />
            <button
              type="button"
              class="small secondary"
              disabled={!reason.trim()}
              onClick={() =>
                act(
                  () =>
                    api.POST("/matches/{match_id}/adjourn", {
                      params: { path: { match_id: m.id } },
                      body: {
                        reason: reason.trim(),
                        resume_by: new Date(platformNow() + hours * 3_600_000).toISOString(),
                        ...(photos[m.id] ? { photo: photos[m.id] } : {}),
                      },
                    }),
                  t("adjourn_done"),
                )
              }
            >
              {t("adjourn")}
            </button>
            <PhotoUpload matchId={m.id} onKey={(key) => setPhotos((known) => ({ ...known, [m.id]: key }))} />
          </li>
        ))}
        {adjourned.map((m) => (
          <li key={m.id} class="table" data-testid="adjourned-match">
            <MatchLine match={m} />
            <PositionPhoto matchId={m.id} />
            <button type="button" class="small" onClick={() => act(() => api.POST("/matches/{match_id}/resume", { params: { path: { match_id: m.id } } }), t("resume_done"))}>
              {t("resume")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
