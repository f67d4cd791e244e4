// #/t/<id>/money (organiser): the players' payments, a bank statement upload with its
// matched / unmatched lines, manual matching, the prize table and the export.
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../../api/client";
import { Alert, Choice, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { day, money } from "../../format";
import { t, type Key } from "../../i18n";
import { nothing, useLoad } from "../../load";
import { ExportButton } from "../treasury";

type Line = Schemas["StatementLineView"];
import { PrizeTable } from "./ledger";

const FORMATS = ["csv", "mt940", "camt053"] as const;
// each format as the API names it: how 31 December 2026 is written
const DATE_FORMATS = ["2026-12-31", "31/12/2026", "31.12.2026", "31-12-2026"] as const;
const DELIMITERS = { comma: ",", semicolon: ";", tab: "\t" } as const;
type Delimiter = keyof typeof DELIMITERS;
type Mapping = {
  value_date: string;
  amount: string;
  reference: string;
  payer: string;
  date_format: (typeof DATE_FORMATS)[number];
  decimal_comma: boolean;
  delimiter: Delimiter;
};
const FIRST_MAPPING: Mapping = {
  value_date: "date",
  amount: "amount",
  reference: "reference",
  payer: "payer",
  date_format: "2026-12-31",
  decimal_comma: false,
  delimiter: "comma",
};
const COLUMNS = ["value_date", "amount", "reference", "payer"] as const;

/** Which column of the bank's CSV holds what; the API keeps it for the organiser's next upload. */
function MappingForm({
  mapping,
  saved,
  onChange,
  onSaved,
}: {
  mapping: Mapping;
  saved: boolean;
  onChange: (m: Mapping) => void;
  onSaved: (saved: boolean) => void;
}) {
  return (
    <fieldset data-testid="csv-mapping">
      <legend>{t("mapping_title")}</legend>
      <label class="check">
        <input type="checkbox" name="use-saved" checked={saved} onChange={(e) => onSaved(e.currentTarget.checked)} />
        {t("mapping_use_saved")}
      </label>
      {!saved && (
        <>
          <p class="hint">{t("mapping_hint")}</p>
          {COLUMNS.map((c) => (
            <label key={c}>
              {t(`mapping_${c}`)}
              <input
                name={`column-${c}`}
                required={c !== "payer"}
                autocomplete="off"
                value={mapping[c]}
                onInput={(e) => onChange({ ...mapping, [c]: e.currentTarget.value })}
              />
            </label>
          ))}
          <label>
            {t("mapping_date_format")}
            <select
              name="date-format"
              value={mapping.date_format}
              onChange={(e) => onChange({ ...mapping, date_format: e.currentTarget.value as Mapping["date_format"] })}
            >
              {DATE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {t(`date_format_${DATE_FORMATS.indexOf(f)}` as Key)}
                </option>
              ))}
            </select>
          </label>
          <Choice
            label={t("mapping_delimiter")}
            name="delimiter"
            value={mapping.delimiter}
            values={Object.keys(DELIMITERS) as Delimiter[]}
            prefix="delimiter_"
            onChange={(delimiter) => onChange({ ...mapping, delimiter })}
          />
          <label class="check">
            <input
              type="checkbox"
              name="decimal-comma"
              checked={mapping.decimal_comma}
              onChange={(e) => onChange({ ...mapping, decimal_comma: e.currentTarget.checked })}
            />
            {t("mapping_decimal_comma")}
          </label>
        </>
      )}
    </fieldset>
  );
}

function mappingBody(m: Mapping) {
  return {
    value_date: m.value_date.trim(),
    amount: m.amount.trim(),
    reference: m.reference.trim(),
    payer: m.payer.trim() || null,
    date_format: m.date_format,
    decimal_comma: m.decimal_comma,
    delimiter: DELIMITERS[m.delimiter],
  };
}

/** #/t/<id>/money: the organiser's payments, bank statements and prizes. */
export function TournamentMoney({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const payments = useLoad(
    () => (getToken() ? api.GET("/tournaments/{tournament_id}/payments", path) : nothing<Schemas["TournamentPayments"]>(401)),
    [id],
  );
  const lines = useLoad(
    () =>
      getToken()
        ? api.GET("/tournaments/{tournament_id}/bank-statements/lines", path)
        : nothing<Schemas["StatementImport"]>(401),
    [id],
  );
  const prizes = useLoad(() => api.GET("/tournaments/{tournament_id}/prizes", path), [id]);
  const [form, setForm] = useState({ format: "csv" as (typeof FORMATS)[number], content: "", account: "" });
  const [mapping, setMapping] = useState<Mapping>(FIRST_MAPPING);
  const [useSaved, setUseSaved] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  if (!getToken()) return <NeedSignIn />;

  async function upload(e: Event) {
    e.preventDefault();
    setError("");
    setMessage("");
    const answer = await api.POST("/tournaments/{tournament_id}/bank-statements", {
      params: { path: { tournament_id: id } },
      body: {
        format: form.format,
        content: form.content,
        account: form.account.trim() || null,
        ...(form.format === "csv" && !useSaved ? { mapping: mappingBody(mapping) } : {}),
      },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    const c = answer.data.counts;
    setMessage(t("statement_imported", { matched: c.matched ?? 0, unmatched: c.unmatched ?? 0 }));
    lines.reload();
    payments.reload();
  }
  async function payout(tavlaId: string) {
    setError("");
    const answer = await api.POST("/tournaments/{tournament_id}/prizes/payouts", {
      params: { path: { tournament_id: id } },
      body: { tavla_id: tavlaId, method: "cash" },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setMessage(t("payout_recorded"));
    prizes.reload();
    payments.reload();
  }

  return (
    <section>
      <h1>{t("money_title")}</h1>
      <div class="two">
        <a class="button secondary" href={`#/t/${id}/organise`}>
          {t("organise")}
        </a>
        <a class="button secondary" href={`#/t/${id}/till`}>
          {t("till_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}/refunds`}>
          {t("refunds_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}/payouts`}>
          {t("payouts_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}/deadline`}>
          {t("deadline_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}/categories`}>
          {t("categories_title")}
        </a>
      </div>
      <ExportButton id={id} />
      <Alert text={error} />
      <Note text={message} testid="money-message" />
      <h2>{t("payments")}</h2>
      <Status loading={payments.loading && !payments.data} error={payments.error} />
      {payments.data && (
        <>
          <dl class="facts">
            <dt>{t("money_collected")}</dt>
            <dd data-testid="collected">{money(payments.data.collected.amount)}</dd>
            <dt>{t("money_outstanding")}</dt>
            <dd>{money(payments.data.outstanding.amount)}</dd>
          </dl>
          <div class="scroll" tabIndex={0} role="region" aria-label={t("payments")}>
          <table class="grid" data-testid="payments">
            <thead>
              <tr>
                <th scope="col">{t("tavla_id")}</th>
                <th scope="col">{t("money_due")}</th>
                <th scope="col">{t("money_paid")}</th>
                <th scope="col">{t("money_outstanding")}</th>
              </tr>
            </thead>
            <tbody>
              {payments.data.ledgers.map((l) => (
                <tr key={l.tavla_id}>
                  <td>{l.tavla_id}</td>
                  <td>{money(l.due.amount)}</td>
                  <td>{money(l.paid.amount)}</td>
                  <td>{money(l.outstanding.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </>
      )}
      <h2>{t("bank_statement")}</h2>
      {lines.data && lines.data.lines.length > 0 && (
        <StatementLines lines={lines.data.lines} id={id} onMatched={() => (lines.reload(), payments.reload())} />
      )}
      <form onSubmit={upload}>
        <Choice
          label={t("statement_format")}
          name="format"
          value={form.format}
          values={FORMATS}
          prefix="format_"
          onChange={(format) => setForm({ ...form, format })}
        />
        <label>
          {t("statement_account")}
          <input name="account" value={form.account} onInput={(e) => setForm({ ...form, account: e.currentTarget.value })} />
        </label>
        <label>
          {t("statement_text")}
          <textarea
            name="statement"
            rows={6}
            required
            value={form.content}
            onInput={(e) => setForm({ ...form, content: e.currentTarget.value })}
          />
        </label>
        {form.format === "csv" && (
          <MappingForm mapping={mapping} saved={useSaved} onChange={setMapping} onSaved={setUseSaved} />
        )}
        <label>
          {t("statement_file")}
          <input
            type="file"
            accept=".csv,.txt,.sta,.xml"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              if (file) setForm({ ...form, content: await file.text() });
            }}
          />
        </label>
        <button type="submit">{t("statement_upload")}</button>
      </form>
      <h2>{t("prizes")}</h2>
      <Status loading={prizes.loading && !prizes.data} error={prizes.error} />
      {prizes.data && <PrizeTable table={prizes.data} onPayout={payout} />}
    </section>
  );
}

function StatementLines({ lines, id, onMatched }: { lines: Line[]; id: string; onMatched: () => void }) {
  return (
    <ul class="plain lines" data-testid="statement-lines">
      {lines.map((line) => (
        <li key={line.checksum} data-status={line.status}>
          <span>
            {day(line.value_date)} · {money(line.amount.amount)} · {line.reference ?? ""}
            {line.payer ? ` · ${line.payer}` : ""}
          </span>{" "}
          <span class={`tag status-${line.status}`}>{t(`line_${line.status}` as Key)}</span>
          {line.tavla_id && <span> · {line.tavla_id}</span>}
          {line.status === "unmatched" && <MatchByHand id={id} checksum={line.checksum} onMatched={onMatched} />}
        </li>
      ))}
    </ul>
  );
}

function MatchByHand({ id, checksum, onMatched }: { id: string; checksum: string; onMatched: () => void }) {
  const [tavlaId, setTavlaId] = useState("");
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    const answer = await api.POST("/tournaments/{tournament_id}/bank-statements/lines/{checksum}/match", {
      params: { path: { tournament_id: id, checksum } },
      body: { tavla_id: tavlaId.trim().toUpperCase() },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    onMatched();
  }
  return (
    <form class="inline" onSubmit={submit}>
      <label>
        {t("match_to_player")}
        <input name="match-tavla-id" value={tavlaId} required onInput={(e) => setTavlaId(e.currentTarget.value)} />
      </label>
      <button type="submit" class="secondary">
        {t("match_line")}
      </button>
      <Alert text={error} />
    </form>
  );
}
