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
  transaction_id: string;
  date_format: (typeof DATE_FORMATS)[number];
  decimal_comma: boolean;
  delimiter: Delimiter;
};
const FIRST_MAPPING: Mapping = {
  value_date: "date",
  amount: "amount",
  reference: "reference",
  payer: "payer",
  transaction_id: "",
  date_format: "2026-12-31",
  decimal_comma: false,
  delimiter: "comma",
};
const COLUMNS = ["value_date", "amount", "reference", "payer", "transaction_id"] as const;
const OPTIONAL: readonly string[] = ["payer", "transaction_id"];
type Preview = Schemas["CsvPreview"];
const PREVIEW_LINES = 21; // the header and the first 20 lines

/** Which column of the bank's CSV holds what; the API keeps it for the organiser's next upload. */
function MappingForm({
  id,
  content,
  mapping,
  saved,
  onChange,
  onSaved,
}: {
  id: string;
  content: string;
  mapping: Mapping;
  saved: boolean;
  onChange: (m: Mapping) => void;
  onSaved: (saved: boolean) => void;
}) {
  const [preview, setPreview] = useState<Preview>();
  const [error, setError] = useState("");

  /** The file's first lines read by the API: its columns with examples, the date formats they read in. */
  async function read() {
    setError("");
    const head = content.split(/\r?\n/).slice(0, PREVIEW_LINES).join("\n");
    const answer = await api.POST("/tournaments/{tournament_id}/bank-statements/csv-columns", {
      params: { path: { tournament_id: id } },
      body: { content: head },
    });
    if (answer.error) return setError(problem(answer.error) || t("failed"));
    const found = answer.data;
    setPreview(found);
    const pick = (role: string) => found.suggested[role] ?? "";
    const dates = found.columns.find((c) => c.name === pick("value_date"))?.date_formats ?? [];
    const delimiter = (Object.keys(DELIMITERS) as Delimiter[]).find((k) => DELIMITERS[k] === found.delimiter) ?? "comma";
    onChange({
      ...mapping,
      ...Object.fromEntries(COLUMNS.map((c) => [c, pick(c)])),
      date_format: (dates[0] as Mapping["date_format"]) ?? mapping.date_format,
      delimiter,
      decimal_comma: found.decimal_comma,
    });
  }

  const dateColumn = preview?.columns.find((c) => c.name === mapping.value_date);
  const formats = (preview ? (dateColumn?.date_formats ?? []) : DATE_FORMATS) as readonly Mapping["date_format"][];
  const rows = preview ? Math.max(0, ...preview.columns.map((c) => c.examples.length)) : 0;
  return (
    <fieldset data-testid="csv-mapping">
      <legend>{t("mapping_title")}</legend>
      <label class="check">
        <input type="checkbox" name="use-saved" checked={saved} onChange={(e) => onSaved(e.currentTarget.checked)} />
        {t("mapping_use_saved")}
      </label>
      {!saved && (
        <>
          <p class="hint">{t(preview ? "mapping_hint_picked" : "mapping_hint")}</p>
          <button type="button" class="secondary" disabled={!content.trim()} onClick={() => void read()}>
            {t("mapping_read")}
          </button>
          <Alert text={error} />
          {preview && (
            <div class="scroll" tabIndex={0} role="region" aria-label={t("mapping_first_lines")}>
              <table class="grid" data-testid="csv-first-lines">
                <caption>{t("mapping_first_lines")}</caption>
                <thead>
                  <tr>
                    {preview.columns.map((c) => (
                      <th scope="col" key={c.name}>
                        {c.name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {Array.from({ length: rows }, (_, i) => (
                    <tr key={i}>
                      {preview.columns.map((c) => (
                        <td key={c.name}>{c.examples[i] ?? ""}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {COLUMNS.map((c) =>
            preview ? (
              <label key={c}>
                {t(`mapping_${c}`)}
                <select name={`column-${c}`} value={mapping[c]} onChange={(e) => onChange({ ...mapping, [c]: e.currentTarget.value })}>
                  {OPTIONAL.includes(c) && <option value="">{t("mapping_none")}</option>}
                  {preview.columns.map((col) => (
                    <option key={col.name} value={col.name}>
                      {col.examples[0] ? t("mapping_column_example", { name: col.name, example: col.examples[0] }) : col.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <label key={c}>
                {t(`mapping_${c}`)}
                <input
                  name={`column-${c}`}
                  required={!OPTIONAL.includes(c)}
                  autocomplete="off"
                  value={mapping[c]}
                  onInput={(e) => onChange({ ...mapping, [c]: e.currentTarget.value })}
                />
              </label>
            ),
          )}
          <label>
            {t("mapping_date_format")}
            <select
              name="date-format"
              value={mapping.date_format}
              onChange={(e) => onChange({ ...mapping, date_format: e.currentTarget.value as Mapping["date_format"] })}
            >
              {formats.map((f) => (
                <option key={f} value={f}>
                  {dateColumn?.first_date_reads_as?.[f]
                    ? t("mapping_date_reads", { example: dateColumn.examples[0] ?? "", date: day(dateColumn.first_date_reads_as[f]) })
                    : t(`date_format_${DATE_FORMATS.indexOf(f)}` as Key)}
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
    transaction_id: m.transaction_id.trim() || null,
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
                <th scope="col">{t("player")}</th>
                <th scope="col">{t("money_due")}</th>
                <th scope="col">{t("money_paid")}</th>
                <th scope="col">{t("money_outstanding")}</th>
              </tr>
            </thead>
            <tbody>
              {payments.data.ledgers.map((l) => (
                <tr key={l.tavla_id}>
                  <td>
                    {l.name ?? l.tavla_id}
                    {l.name && <span class="small"> · {l.tavla_id}</span>}
                  </td>
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
          <MappingForm id={id} content={form.content} mapping={mapping} saved={useSaved} onChange={setMapping} onSaved={setUseSaved} />
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
