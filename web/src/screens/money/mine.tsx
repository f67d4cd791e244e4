// #/money: every ledger of the signed-in player.
import { api, type Schemas } from "../../api/client";
import { NeedSignIn, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { t } from "../../i18n";
import { nothing, useLoad } from "../../load";

import { LedgerFacts } from "./ledger";

/** #/money: every ledger of the signed-in player. */
export function MyMoney() {
  const mine = useLoad(() => (getToken() ? api.GET("/me/payments") : nothing<Schemas["MyPayments"]>(401)), []);
  if (!getToken()) return <NeedSignIn />;
  return (
    <section>
      <h1>{t("nav_money")}</h1>
      <Status loading={mine.loading && !mine.data} error={mine.error} />
      {mine.data && mine.data.ledgers.length === 0 && <p>{t("money_none")}</p>}
      {mine.data?.ledgers.map((l) => (
        <article key={l.tournament_id} class="card">
          <h2>
            <a href={`#/t/${l.tournament_id}`}>{t("tournament_link")}</a>
          </h2>
          <LedgerFacts ledger={l} pay />
        </article>
      ))}
    </section>
  );
}
