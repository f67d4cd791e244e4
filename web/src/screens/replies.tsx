// #/season/<id>/replies: who comes to the Super Final, for its organiser and the platform's
// admins: accepted, waiting (with the deadline in Greek time), declined, lapsed, and the
// reserves, those invited after a seat passed down marked as such. It follows the season's
// live channel: an answer elsewhere shows here without a reload.
import { api, type Schemas } from "../api/client";
import { getToken } from "../auth";
import { dateTime } from "../format";
import { t } from "../i18n";
import { channelsOf, useLive } from "../live/use-live";
import { useLoad } from "../load";
import { NeedSignIn, Stale, Status } from "../ui/widgets";

type Invitation = Schemas["Invitation"];
type FinalPlayer = Schemas["FinalPlayer"];

function Reserve({ on }: { on: boolean | undefined }) {
  return on ? <span class="tag">{t("replies_reserve")}</span> : null;
}

function Who({ p }: { p: { tavla_id: string; name?: string | null } }) {
  return <a href={`#/player/${p.tavla_id}`}>{p.name ?? t("player")}</a>;
}

function Section({ title, testid, count, children }: { title: string; testid: string; count: number; children: preact.ComponentChildren }) {
  return (
    <>
      <h2>
        {title} ({count})
      </h2>
      {count === 0 ? (
        <p>{t("replies_nobody")}</p>
      ) : (
        <ol class="entries" data-testid={testid}>
          {children}
        </ol>
      )}
    </>
  );
}

function invitations(list: Invitation[], line: (i: Invitation) => string) {
  return list.map((i) => (
    <li key={i.tavla_id}>
      <Who p={i} />
      <span>
        {t("place")} {i.place} · {line(i)} <Reserve on={i.reserve} />
      </span>
    </li>
  ));
}

function players(list: FinalPlayer[]) {
  return list.map((p) => (
    <li key={p.tavla_id}>
      <Who p={p} />
      <span>
        {t("place")} {p.place} · {t("lives", { n: p.lives })} <Reserve on={p.reserve} />
      </span>
    </li>
  ));
}

export function Replies({ id }: { id: string }) {
  const p = { params: { path: { season_id: id } } };
  const season = useLoad(() => api.GET("/seasons/{season_id}", p), [id]);
  const replies = useLoad(() => api.GET("/seasons/{season_id}/invitations/replies", p), [id]);
  const live = useLive([channelsOf.season(id)], replies.reload);
  if (!getToken()) return <NeedSignIn />;
  const r = replies.data;
  return (
    <section>
      <h1>{t("replies_title")}</h1>
      {season.data && (
        <p>
          <a href={`#/season/${encodeURIComponent(id)}`}>{season.data.name}</a>
        </p>
      )}
      <Stale since={live.staleSince} />
      <Status loading={replies.loading && !r} error={replies.error} />
      {r && (
        <>
          <p data-testid="replies-summary">
            {t("finalists_accepted", { n: r.accepted.length, seats: r.seats })} · {t("replies_waiting_n", { n: r.pending.length })}
          </p>
          <Section title={t("replies_accepted")} testid="replies-accepted" count={r.accepted.length}>
            {players(r.accepted)}
          </Section>
          <Section title={t("replies_pending")} testid="replies-pending" count={r.pending.length}>
            {invitations(r.pending, (i) => t("replies_reply_by", { time: dateTime(i.reply_by) }))}
          </Section>
          <Section title={t("replies_declined")} testid="replies-declined" count={r.declined.length}>
            {invitations(r.declined, (i) => t("replies_answered_at", { time: dateTime(i.answered_at) }))}
          </Section>
          <Section title={t("replies_expired")} testid="replies-expired" count={r.expired.length}>
            {invitations(r.expired, (i) => t("replies_lapsed_at", { time: dateTime(i.reply_by) }))}
          </Section>
          <Section title={t("replies_reserves")} testid="replies-reserves" count={r.reserves.length}>
            {players(r.reserves)}
          </Section>
        </>
      )}
    </section>
  );
}
