/**
 * Request limits counted once for a deployment of several machines on one PostgreSQL
 * (LIMIT_SCOPE=deployment: src/limits/deployment-lessor.ts, src/db/limits.ts). Each machine's
 * cluster primary is a holder: it leases window places and in-flight seats of an account for its
 * HTTP workers (limit_leases, one row per account and holder), reports when each used place was
 * used (limit_admissions) and gives back what it did not use. A holder's lease of the store lives
 * while it beats (limit_holders.expires_at, the database's clock): the leases of a holder past its
 * expiry are reaped by the next statement on the account, their seats freed and their window places
 * counted as used at the holder's last beat (it may have admitted requests with them). Window times
 * are Unix ms of the machines' wall clocks (kept in step by NTP), as each machine stamps its requests.
 *
 * limit_lease and limit_settle lock the account's limit_accounts row, so that each is one atomic
 * statement whichever machines call them at once.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table limit_holders (
      holder text primary key,
      expires_at timestamptz not null,
      beat_ms int8 not null
    )`.execute(db);
  await sql`
    create table limit_accounts (
      account_id text primary key,
      cooldown_until_ms int8 not null default 0,
      rejections int8[] not null default '{}'
    )`.execute(db);
  await sql`
    create table limit_leases (
      account_id text not null,
      holder text not null,
      slots int4 not null,
      seats int4 not null,
      primary key (account_id, holder)
    )`.execute(db);
  // One row per report (its admission times, sorted), not per request: a statement on a busy
  // account counts a row per report in the window (about 600 a minute per worker), not each request.
  await sql`
    create table limit_admissions (
      account_id text not null,
      first_ms int8 not null,
      last_ms int8 not null,
      stamps int8[] not null
    )`.execute(db);
  await sql`create index limit_admissions_account on limit_admissions (account_id, last_ms)`.execute(db);
  // Admission times added to an account's windows, as one row.
  await sql`
    create function limit_admit(p_account text, p_stamps int8[]) returns void
    language sql as $fn$
      insert into limit_admissions (account_id, first_ms, last_ms, stamps)
      select p_account, min(s), max(s), array_agg(s order by s) from unnest(p_stamps) s having count(*) > 0
    $fn$`.execute(db);
  // How many of the rows' times are after p_cutoff, and the first of them.
  await sql`
    create function limit_after(p_stamps int8[], p_first int8, p_last int8, p_cutoff int8, out n int4, out first_ms int8)
    language sql immutable as $fn$
      select case when p_first > p_cutoff then cardinality(p_stamps) when p_last <= p_cutoff then 0
                  else (select count(*)::int4 from unnest(p_stamps) s where s > p_cutoff) end,
             case when p_first > p_cutoff then p_first when p_last <= p_cutoff then null
                  else (select min(s) from unnest(p_stamps) s where s > p_cutoff) end
    $fn$`.execute(db);

  // The account's row locked, dead holders' leases reaped, times out of the minute pruned; with
  // p_count, the windows as of p_now.
  await sql`
    create function limit_windows(p_account text, p_now int8, p_count boolean,
      out minute_used int4, out second_used int4, out reserved int4, out seated int4,
      out minute_next int8, out second_next int8, out cooldown_until_ms int8, out rejections int8[])
    language plpgsql as $fn$
    declare
      reaped text;
    begin
      insert into limit_accounts (account_id) values (p_account) on conflict do nothing;
      select a.cooldown_until_ms, a.rejections into cooldown_until_ms, rejections
        from limit_accounts a where a.account_id = p_account for update;
      with dead as (
        delete from limit_leases l using limit_holders h
        where l.account_id = p_account and h.holder = l.holder and h.expires_at < now()
        returning l.slots, h.beat_ms
      ), orphan as (
        delete from limit_leases l
        where l.account_id = p_account and not exists (select 1 from limit_holders h where h.holder = l.holder)
        returning l.slots, p_now as beat_ms
      )
      select limit_admit(p_account, array_agg(d.beat_ms))::text into reaped
        from (select * from dead union all select * from orphan) d, generate_series(1, greatest(d.slots, 0));
      delete from limit_admissions a where a.account_id = p_account and a.last_ms <= p_now - 60000;
      if not p_count then return; end if;
      select coalesce(sum(m.n), 0)::int4, coalesce(sum(s.n), 0)::int4, min(m.first_ms), min(s.first_ms)
        into minute_used, second_used, minute_next, second_next
        from limit_admissions a
        cross join lateral limit_after(a.stamps, a.first_ms, a.last_ms, p_now - 60000) m
        cross join lateral limit_after(a.stamps, a.first_ms, a.last_ms, p_now - 1000) s
        where a.account_id = p_account and a.last_ms > p_now - 60000;
      select coalesce(sum(l.slots), 0)::int4, coalesce(sum(l.seats), 0)::int4 into reserved, seated
        from limit_leases l where l.account_id = p_account;
    end
    $fn$`.execute(db);

  // One lease: up to p_slots window places (with p_consume) and p_seats in-flight seats, each at
  // most the free places divided by p_share (at least the one a request needs), or the refusal's kind.
  await sql`
    create function limit_lease(p_account text, p_holder text, p_now int8, p_consume boolean,
      p_slots int4, p_seats int4, p_share int4, p_per_minute int4, p_per_second int4, p_in_flight int4,
      out slots int4, out seats int4, out refusal text, out others int4,
      out minute_used int4, out second_used int4, out seated int4,
      out minute_next int8, out second_next int8, out cooldown_until_ms int8)
    language plpgsql as $fn$
    declare
      w record;
      part int4;
    begin
      select * into w from limit_windows(p_account, p_now, true);
      minute_used := w.minute_used + w.reserved;
      second_used := w.second_used + w.reserved;
      seated := w.seated;
      minute_next := w.minute_next;
      second_next := w.second_next;
      cooldown_until_ms := w.cooldown_until_ms;
      slots := 0;
      seats := 0;
      select coalesce(sum(l.slots + l.seats), 0)::int4 into others
        from limit_leases l where l.account_id = p_account and l.holder <> p_holder;
      if p_consume and w.cooldown_until_ms > p_now then refusal := 'cooldown';
      elsif w.seated >= p_in_flight then refusal := 'in_flight';
      elsif p_consume and second_used >= p_per_second then refusal := 'second';
      elsif p_consume and minute_used >= p_per_minute then refusal := 'minute';
      end if;
      if refusal is not null then return; end if;
      seats := greatest(1, least(p_seats, (p_in_flight - w.seated) / greatest(p_share, 1)));
      if p_seats = 0 then seats := 0; end if;
      if p_consume then
        part := least(p_per_second - second_used, p_per_minute - minute_used);
        slots := greatest(1, least(p_slots, part / greatest(p_share, 1)));
      end if;
      insert into limit_leases (account_id, holder, slots, seats) values (p_account, p_holder, slots, seats)
        on conflict (account_id, holder) do update
          set slots = limit_leases.slots + excluded.slots, seats = limit_leases.seats + excluded.seats;
      minute_used := minute_used + slots;
      second_used := second_used + slots;
      seated := seated + seats;
    end
    $fn$`.execute(db);

  // What a holder gives back: the places it used (when), those it did not use, seats, and the
  // places reported used before whose requests were not served (taken out of the windows).
  await sql`
    create function limit_settle(p_account text, p_holder text, p_now int8,
      p_used int8[], p_unused int4, p_seats int4, p_unserved int8[],
      out minute_used int4, out second_used int4, out seated int4,
      out minute_next int8, out second_next int8, out cooldown_until_ms int8)
    language plpgsql as $fn$
    declare
      w record;
      stamp int8;
    begin
      perform 1 from limit_windows(p_account, p_now, false);
      perform limit_admit(p_account, array(select u from unnest(p_used) u where u > p_now - 60000));
      foreach stamp in array p_unserved loop
        update limit_admissions a
          set stamps = x.kept, first_ms = coalesce(x.kept[1], a.first_ms), last_ms = coalesce(x.kept[cardinality(x.kept)], a.last_ms)
          from (
            select b.ctid as id, b.stamps[:array_position(b.stamps, stamp) - 1] || b.stamps[array_position(b.stamps, stamp) + 1:] as kept
            from limit_admissions b
            where b.account_id = p_account and b.first_ms <= stamp and b.last_ms >= stamp and stamp = any (b.stamps) limit 1
          ) x
          where a.ctid = x.id;
      end loop;
      delete from limit_admissions a where a.account_id = p_account and cardinality(a.stamps) = 0;
      update limit_leases l set slots = greatest(0, l.slots - coalesce(array_length(p_used, 1), 0) - p_unused),
                               seats = greatest(0, l.seats - p_seats)
        where l.account_id = p_account and l.holder = p_holder;
      delete from limit_leases l where l.account_id = p_account and l.holder = p_holder and l.slots = 0 and l.seats = 0;
      -- Locked already: this call only counts (nothing is left to reap or prune).
      select * into w from limit_windows(p_account, p_now, true);
      minute_used := w.minute_used + w.reserved;
      second_used := w.second_used + w.reserved;
      seated := w.seated;
      minute_next := w.minute_next;
      second_next := w.second_next;
      cooldown_until_ms := w.cooldown_until_ms;
    end
    $fn$`.execute(db);

  // A refusal counted: the one that makes p_after within a minute starts a cooldown of p_cooldown_ms.
  await sql`
    create function limit_refuse(p_account text, p_now int8, p_after int4, p_cooldown_ms int4) returns int8
    language plpgsql as $fn$
    declare
      kept int8[];
      until_ms int8;
    begin
      insert into limit_accounts (account_id) values (p_account) on conflict do nothing;
      select coalesce(array_agg(r) filter (where r > p_now - 60000), '{}') || p_now into kept
        from limit_accounts a, unnest(a.rejections) r where a.account_id = p_account;
      until_ms := 0;
      if coalesce(array_length(kept, 1), 0) >= p_after and p_cooldown_ms > 0 then
        until_ms := p_now + p_cooldown_ms;
        kept := '{}';
      end if;
      update limit_accounts set rejections = kept, cooldown_until_ms = greatest(cooldown_until_ms, until_ms)
        where account_id = p_account
        returning cooldown_until_ms into until_ms;
      return until_ms;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists limit_refuse(text, int8, int4, int4)`.execute(db);
  await sql`drop function if exists limit_settle(text, text, int8, int8[], int4, int4, int8[])`.execute(db);
  await sql`drop function if exists limit_lease(text, text, int8, boolean, int4, int4, int4, int4, int4, int4)`.execute(db);
  await sql`drop function if exists limit_windows(text, int8, boolean)`.execute(db);
  await sql`drop function if exists limit_after(int8[], int8, int8, int8)`.execute(db);
  await sql`drop function if exists limit_admit(text, int8[])`.execute(db);
  for (const table of ['limit_admissions', 'limit_leases', 'limit_accounts', 'limit_holders']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
