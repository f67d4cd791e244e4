// A player's ledger (due, paid, balance, each payment, card checkout) and the prize table:
// shown by the player's screens and the organiser's.
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../../api/client";
import { Alert, Note } from "../../ui/widgets";
import { getToken } from "../../auth";
import { money } from "../../format";
import { t, type Key } from "../../i18n";
import { nothing, useLoad } from "../../load";

type Ledger = Schemas["Ledger"];

/** Due, paid, what is left; the card checkout on the provider's page. */
export function LedgerFacts({ ledger, pay }: { ledger: Ledger; pay?: boolean }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function checkout() {
    setError("");
    setBusy(true);
    const answer = await api.POST("/tournaments/{tournament_id}/payments/checkout", {
      params: { path: { tournament_id: ledger.tournament_id } },
    });
    setBusy(false);
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    location.assign(answer.data.checkout_url);
  }
  return (
    <div data-testid="my-ledger">
      <dl class="facts">
        <dt>{t("money_due")}</dt>
        <dd data-testid="ledger-due">{money(ledger.due.amount)}</dd>
        <dt>{t("money_paid")}</dt>
        <dd data-testid="ledger-paid">{money(ledger.paid.amount)}</dd>
        {ledger.refunded.amount > 0 && (
          <>
            <dt>{t("money_refunded")}</dt>
            <dd>{money(ledger.refunded.amount)}</dd>
          </>
        )}
        <dt>{t("money_outstanding")}</dt>
        <dd data-testid="ledger-outstanding">{money(ledger.outstanding.amount)}</dd>
      </dl>
      {ledger.entries.length > 0 && (
        <ul class="plain" aria-label={t("money_entries")}>
          {ledger.entries.map((e) => (
            <li key={e.id}>
              {e.value_date} · {t(`method_${e.method ?? "other"}` as Key)} · {money(e.amount.amount)}
            </li>
          ))}
        </ul>
      )}
      {pay && ledger.outstanding.amount > 0 && (
        <button type="button" onClick={checkout} disabled={busy}>
          {t("pay_by_card", { amount: money(ledger.outstanding.amount) })}
        </button>
      )}
      <Alert text={error} />
    </div>
  );
}

/** On the tournament page: what the signed-in player owes for it. */
export function MyLedger({ id }: { id: string }) {
  const mine = useLoad(() => (getToken() ? api.GET("/me/payments") : nothing<Schemas["MyPayments"]>(401)), [id]);
  const ledger = mine.data?.ledgers.find((l) => l.tournament_id === id);
  if (!ledger) return null;
  return (
    <>
      <h2>{t("my_payment")}</h2>
      {new URLSearchParams(location.search).get("checkout") === "success" && <Note text={t("checkout_back")} />}
      <LedgerFacts ledger={ledger} pay />
    </>
  );
}


export function PrizeTable({ table, onPayout }: { table: Schemas["PrizeTable"]; onPayout?: (tavlaId: string) => void }) {
  return (
    <>
      <dl class="facts">
        <dt>{t("prize_pool")}</dt>
        <dd data-testid="prize-pool">{money(table.pool.amount)}</dd>
        <dt>{t("prize_money_total")}</dt>
        <dd>{money(table.money_total.amount)}</dd>
      </dl>
      {!table.final && <p class="hint">{t("prizes_provisional")}</p>}
      {table.awards.length === 0 ? (
        <p>{t("prizes_none")}</p>
      ) : (
        <ol class="plain" data-testid="prize-table" aria-label={t("prizes")}>
          {table.awards.map((a) => (
            <li key={`${a.scope}-${a.place}-${a.tavla_id}`}>
              <span>
                {t("place")} {a.place} · {a.name ?? a.tavla_id} · <strong>{money(a.money.amount)}</strong>
                {a.items && a.items.length > 0 ? ` · ${a.items.join(", ")}` : ""}
              </span>
              {onPayout && table.final && a.money.amount > 0 && (
                <div>
                  <button type="button" class="secondary" onClick={() => onPayout(a.tavla_id)}>
                    {t("payout_cash")}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
