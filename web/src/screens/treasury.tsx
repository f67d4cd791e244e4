// Money at the referee table and the organiser's money tasks: cash or card paid at
// the venue, the refunds to pay, the payment deadline, the CSV export of all money in and out.
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../api/client";
import { Alert, NeedSignIn, Note, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { cents, dateTime, isoToVenueInput, money, venueInputToIso } from "../format";
import { t, type Key } from "../i18n";
import { nothing, useLoad } from "../load";

type Ledger = Schemas["Ledger"];
const METHODS = ["cash", "card_at_venue"] as const;

/** An amount as typed at the table ("12,50", "12.5", "12") in cents, or the reason it is not one. */
export function typedAmount(typed: string): { cents: number } | { error: Key } {
  const value = cents(typed);
  if (value === null) return { error: "amount_invalid" };
  if (value === 0) return { error: "amount_zero" };
  return { cents: value };
}

/** "30,00" for a form field: the amount in cents as a Greek decimal, without the sign. */
function typedOf(amount: number): string {
  return `${Math.floor(amount / 100)},${String(amount % 100).padStart(2, "0")}`;
}

/** #/t/<id>/till: the referee table's till. Who still owes, and a payment in cash or by card. */
export function Till({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const payments = useLoad(
    () => (getToken() ? api.GET("/tournaments/{tournament_id}/payments", path) : nothing<Schemas["TournamentPayments"]>(401)),
    [id],
  );
  const entries = useLoad(() => api.GET("/tournaments/{tournament_id}/entries", path), [id]);
  const [who, setWho] = useState("");
  const [method, setMethod] = useState<(typeof METHODS)[number]>("cash");
  const [amount, setAmount] = useState("");
  const [receipt, setReceipt] = useState("");
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const names = new Map(
    [...(entries.data?.main ?? []), ...(entries.data?.waiting ?? [])].map((e) => [e.tavla_id, e.name ?? e.tavla_id]),
  );
  // a withdrawn player is no longer on the entry lists: the payments list names them too
  for (const l of payments.data?.ledgers ?? []) if (l.name) names.set(l.tavla_id, l.name);
  const nameOf = (tavlaId: string) => names.get(tavlaId) ?? tavlaId;
  const owing = (payments.data?.ledgers ?? []).filter((l) => l.outstanding.amount > 0 && l.status !== "withdrawn");
  const chosen = payments.data?.ledgers.find((l) => l.tavla_id === who);

  function choose(ledger: Ledger) {
    setWho(ledger.tavla_id);
    setAmount(typedOf(ledger.outstanding.amount));
    setError("");
  }
  async function record(e: Event) {
    e.preventDefault();
    setError("");
    setMessage("");
    const typed = typedAmount(amount);
    if ("error" in typed) {
      setError(t(typed.error));
      return;
    }
    const answer = await api.POST("/tournaments/{tournament_id}/payments", {
      ...path,
      body: {
        tavla_id: who,
        method,
        amount: { amount: typed.cents, currency: "EUR" },
        receipt: receipt.trim() || null,
      },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    const last = answer.data.entries[answer.data.entries.length - 1];
    setMessage(
      t("venue_payment_recorded", {
        amount: money(typed.cents),
        method: t(`method_${method}`),
        name: nameOf(who),
        receipt: last?.receipt ?? "",
      }),
    );
    setWho("");
    setAmount("");
    setReceipt("");
    payments.reload();
  }

  return (
    <section>
      <h1>{t("till_title")}</h1>
      <Status loading={payments.loading && !payments.data} error={payments.error} />
      <form onSubmit={record} data-testid="till-form">
        <label>
          {t("till_player")}
          <select
            name="player"
            required
            value={who}
            onChange={(e) => {
              const ledger = payments.data?.ledgers.find((l) => l.tavla_id === e.currentTarget.value);
              if (ledger) choose(ledger);
              else setWho("");
            }}
          >
            <option value="">{t("till_choose")}</option>
            {(payments.data?.ledgers ?? [])
              .filter((l) => l.status !== "withdrawn")
              .map((l) => (
                <option key={l.tavla_id} value={l.tavla_id}>
                  {nameOf(l.tavla_id)} · {l.tavla_id} · {money(l.outstanding.amount)}
                </option>
              ))}
          </select>
        </label>
        {chosen && (
          <p class="hint" data-testid="till-owes">
            {t("till_owes", { amount: money(chosen.outstanding.amount) })}
          </p>
        )}
        <fieldset>
          <legend>{t("till_method")}</legend>
          {METHODS.map((m) => (
            <label class="check" key={m}>
              <input type="radio" name="method" checked={method === m} onChange={() => setMethod(m)} />
              {t(`method_${m}`)}
            </label>
          ))}
        </fieldset>
        <label>
          {t("till_amount")}
          <input
            name="amount"
            inputMode="decimal"
            autocomplete="off"
            required
            aria-describedby="amount-hint"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
        </label>
        <p class="hint" id="amount-hint">
          {t("amount_hint")}
        </p>
        <label>
          {t("till_receipt")}
          <input name="receipt" autocomplete="off" value={receipt} onInput={(e) => setReceipt(e.currentTarget.value)} />
        </label>
        <button type="submit">{t("till_record")}</button>
      </form>
      <Alert text={error} />
      <Note text={message} testid="till-message" />
      <h2>{t("till_owing", { n: owing.length })}</h2>
      <ul class="entries" data-testid="owing">
        {owing.map((l) => (
          <li key={l.tavla_id}>
            <span>
              {nameOf(l.tavla_id)} · {l.tavla_id} · <strong>{money(l.outstanding.amount)}</strong>
            </span>
            <button type="button" class="small" onClick={() => choose(l)}>
              {t("till_take")}
            </button>
          </li>
        ))}
      </ul>
      {payments.data && (
        <dl class="facts">
          <dt>{t("money_collected")}</dt>
          <dd data-testid="till-collected">{money(payments.data.collected.amount)}</dd>
        </dl>
      )}
    </section>
  );
}

/** #/t/<id>/refunds: the refunds still to pay (R3.5), each marked paid once it is done. */
export function RefundList({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const refunds = useLoad(
    () => (getToken() ? api.GET("/tournaments/{tournament_id}/refunds", path) : nothing<Schemas["Refunds"]>(401)),
    [id],
  );
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const due = refunds.data?.refunds.filter((r) => r.status === "due") ?? [];
  const paid = refunds.data?.refunds.filter((r) => r.status === "done") ?? [];

  async function markPaid(entry: Schemas["LedgerEntry"]) {
    setError("");
    setMessage("");
    setBusy(entry.id);
    const answer = await api.POST("/tournaments/{tournament_id}/refunds/{entry_id}/paid", {
      params: { path: { tournament_id: id, entry_id: entry.id } },
    });
    setBusy("");
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setMessage(t("refund_marked_paid", { amount: money(entry.amount.amount), who: entry.name ?? entry.tavla_id }));
    refunds.reload();
  }

  return (
    <section>
      <h1>{t("refunds_title")}</h1>
      <Status loading={refunds.loading && !refunds.data} error={refunds.error} />
      <Alert text={error} />
      <Note text={message} testid="refund-message" />
      {refunds.data && (
        <dl class="facts">
          <dt>{t("refunds_due_total")}</dt>
          <dd data-testid="refunds-due">{money(refunds.data.due.amount)}</dd>
        </dl>
      )}
      <h2>{t("refunds_to_pay", { n: due.length })}</h2>
      {refunds.data && due.length === 0 && <p>{t("refunds_none")}</p>}
      <ul class="plain" data-testid="refunds-due-list">
        {due.map((r) => (
          <li key={r.id} class="card">
            <span>
              <strong>{money(r.amount.amount)}</strong> · {r.name ?? r.tavla_id}
              {r.name && <span class="small"> · {r.tavla_id}</span>}
              {r.flags?.includes("surplus") && (
                <>
                  {" "}
                  <span class="tag" data-testid="surplus">
                    {t("refund_surplus")}
                  </span>
                </>
              )}
            </span>
            <span class="small">
              {t(`method_${r.method}` as Key)} · {dateTime(r.recorded_at)}
            </span>
            <button type="button" onClick={() => void markPaid(r)} disabled={busy === r.id}>
              {t(r.method === "provider_refund" ? "refund_to_card" : "refund_mark_paid")}
            </button>
          </li>
        ))}
      </ul>
      {paid.length > 0 && (
        <>
          <h2>{t("refunds_paid", { n: paid.length })}</h2>
          <ul class="plain" data-testid="refunds-paid-list">
            {paid.map((r) => (
              <li key={r.id}>
                {money(r.amount.amount)} · {r.name ?? r.tavla_id} · {t(`method_${r.method}` as Key)}
                {r.receipt ? ` · ${r.receipt}` : ""}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** #/t/<id>/deadline: when unpaid places go to the waiting list (a notice a day before). */
export function PaymentDeadline({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const [at, setAt] = useState("");
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const zone = tour.data?.time_zone ?? undefined;
  const current = tour.data?.payment_deadline ?? null;
  const shown = at || (current ? isoToVenueInput(new Date(current), zone) : "");

  async function save(value: string | null) {
    setError("");
    setMessage("");
    const answer = await api.PUT("/tournaments/{tournament_id}/payments/deadline", {
      ...path,
      body: { at: value },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    const set = answer.data;
    setMessage(
      set.payment_deadline
        ? t(set.notice_at ? "deadline_set_notice" : "deadline_set", {
            at: dateTime(set.payment_deadline, zone),
            notice: dateTime(set.notice_at, zone),
          })
        : t("deadline_lifted"),
    );
    tour.reload();
  }

  return (
    <section>
      <h1>{t("deadline_title")}</h1>
      <Status loading={tour.loading && !tour.data} error={tour.error} />
      <p>{t("deadline_explain")}</p>
      {tour.data && (
        <dl class="facts">
          <dt>{t("deadline_current")}</dt>
          <dd data-testid="deadline-current">{current ? dateTime(current, zone) : t("deadline_none")}</dd>
        </dl>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!shown) return setError(t("deadline_pick"));
          void save(venueInputToIso(shown, zone));
        }}
      >
        <label>
          {t("deadline_at")}
          <input
            type="datetime-local"
            name="deadline"
            required
            value={shown}
            onInput={(e) => setAt(e.currentTarget.value)}
          />
        </label>
        <button type="submit">{t("deadline_save")}</button>
      </form>
      {current && (
        <button type="button" class="secondary" onClick={() => void save(null)}>
          {t("deadline_lift")}
        </button>
      )}
      <Alert text={error} />
      <Note text={message} testid="deadline-message" />
    </section>
  );
}

/** The organiser's CSV of every payment, refund and payout, downloaded with one tap. */
export function ExportButton({ id }: { id: string }) {
  const [link, setLink] = useState("");
  const [error, setError] = useState("");
  const name = `tavla-${id}-payments.csv`;
  async function download() {
    setError("");
    const answer = await api.GET("/tournaments/{tournament_id}/payments/export", {
      params: { path: { tournament_id: id } },
      parseAs: "blob",
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    if (link) URL.revokeObjectURL(link);
    const url = URL.createObjectURL(answer.data as Blob);
    setLink(url);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
  }
  return (
    <>
      <button type="button" class="secondary" onClick={() => void download()}>
        {t("export_csv")}
      </button>
      {link && (
        <a class="button secondary" href={link} download={name} data-testid="export-link">
          {t("export_again")}
        </a>
      )}
      <Alert text={error} />
    </>
  );
}

type Winner = Schemas["WinnerPayouts"];

/** #/t/<id>/payouts: each winner's prize, what was paid of it and the rest due (R11.5); a
 * payout of any amount up to the rest due (a split, a part now and the rest later), asked to
 * be confirmed before it is recorded; the answer shows in the winner's own card. */
export function Payouts({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const list = useLoad(
    () =>
      getToken() ? api.GET("/tournaments/{tournament_id}/prizes/payouts", path) : nothing<Schemas["PrizePayouts"]>(401),
    [id],
  );
  if (!getToken()) return <NeedSignIn />;
  return (
    <section>
      <h1>{t("payouts_title")}</h1>
      <Status loading={list.loading && !list.data} error={list.error} />
      {list.data && (
        <dl class="facts">
          <dt>{t("payouts_paid_total")}</dt>
          <dd data-testid="payouts-paid">{money(list.data.paid.amount)}</dd>
          <dt>{t("payouts_rest_total")}</dt>
          <dd data-testid="payouts-rest">{money(list.data.rest_due.amount)}</dd>
        </dl>
      )}
      {list.data && !list.data.final && <p class="hint">{t("prizes_provisional")}</p>}
      <ul class="plain" data-testid="payouts-list">
        {list.data?.winners.map((w) => <WinnerCard key={w.tavla_id} id={id} winner={w} onPaid={list.reload} />)}
      </ul>
    </section>
  );
}

function WinnerCard({ id, winner, onPaid }: { id: string; winner: Winner; onPaid: () => void }) {
  const rest = winner.rest_due.amount;
  const [typed, setTyped] = useState(rest > 0 ? typedOf(rest) : "");
  const [asking, setAsking] = useState<{ cents: number; key: string } | null>(null);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const who = winner.name ?? t("payouts_winner");

  function ask(e: Event) {
    e.preventDefault();
    setError("");
    setMessage("");
    const amount = typedAmount(typed);
    if ("error" in amount) return setError(t(amount.error));
    if (amount.cents > rest) return setError(t("payouts_over", { rest: money(rest) }));
    setAsking({ cents: amount.cents, key: crypto.randomUUID() });
  }
  async function pay() {
    if (!asking) return;
    setBusy(true);
    const answer = await api.POST("/tournaments/{tournament_id}/prizes/payouts", {
      params: { path: { tournament_id: id } },
      headers: { "Idempotency-Key": asking.key }, // the same confirmation sent twice pays once
      body: { tavla_id: winner.tavla_id, method: "cash", amount: { amount: asking.cents, currency: "EUR" } },
    });
    setBusy(false);
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      setAsking(null);
      return;
    }
    setMessage(t("payouts_recorded", { amount: money(asking.cents), who }));
    setAsking(null);
    onPaid();
  }

  return (
    <li class="card" data-testid="winner">
      <strong>{who}</strong>
      <dl class="facts">
        <dt>{t("payouts_won")}</dt>
        <dd>{money(winner.won.amount)}</dd>
        <dt>{t("payouts_paid")}</dt>
        <dd>{money(winner.paid.amount)}</dd>
        <dt>{t("payouts_rest")}</dt>
        <dd data-testid="winner-rest">{money(rest)}</dd>
      </dl>
      {winner.payouts.length > 0 && (
        <ul class="plain small" aria-label={t("payouts_made")}>
          {winner.payouts.map((p) => (
            <li key={p.id}>
              {money(p.amount.amount)} · {dateTime(p.recorded_at)}
            </li>
          ))}
        </ul>
      )}
      <Note text={message} testid="winner-message" />
      <Alert text={error} />
      {rest > 0 && !asking && (
        <form class="inline" onSubmit={ask}>
          <label>
            {t("payouts_amount")}
            <input name="payout-amount" inputMode="decimal" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          </label>
          <button type="submit" class="secondary">
            {t("payouts_pay")}
          </button>
        </form>
      )}
      {asking && (
        <div role="alertdialog" aria-label={t("payouts_confirm_title")} data-testid="payout-confirm">
          <p>{t("payouts_confirm", { amount: money(asking.cents), who })}</p>
          <div class="two">
            <button type="button" onClick={() => void pay()} disabled={busy}>
              {t("payouts_confirm_yes")}
            </button>
            <button type="button" class="secondary" onClick={() => setAsking(null)}>
              {t("payouts_confirm_no")}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
