/**
 * Session flow totals, kept so that the flow leaders route reads a few rows instead of aggregating
 * a session's prints on every request: per trading date, contract, session, underlying and whether
 * the prints are complex (multileg or flagged complex), the uncancelled prints' premium (split by
 * sentiment), volume and count, and the last print (its price, implied volatility and open
 * interest); and the same per underlying. Premiums are summed as numeric, exactly, so that totals
 * added up from these rows equal the totals of the prints themselves whatever the order. From
 * those, flow_leaders_by_contract holds each contract's row of the contract grain for each session
 * choice of the route (rth: rth, curb and other; gth; all) with and without complex prints, and
 * the contract's last regular-session (rth) price of the date, the next date's previous close.
 * The loader writes them in the transaction of each load (src/db/flow-aggregates.ts); the rows of
 * sessions already stored are computed here once.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table flow_totals_by_contract (
      trading_date date not null,
      contract_id bigint not null,
      session text not null,
      complex boolean not null,
      underlying text not null,
      root text not null,
      contract_type text not null,
      date_of_expiry date not null,
      strike double precision not null,
      premium numeric not null,
      bullish numeric not null,
      bearish numeric not null,
      neutral numeric not null,
      volume bigint not null,
      trades bigint not null,
      last_ts bigint not null,
      last_sequence bigint not null,
      last_price double precision not null,
      last_implied_volatility double precision,
      last_open_interest integer,
      primary key (trading_date, contract_id, session, complex, underlying)
    )
  `.execute(db);
  await sql`
    create table flow_totals_by_underlying (
      trading_date date not null,
      underlying text not null,
      session text not null,
      complex boolean not null,
      premium numeric not null,
      bullish numeric not null,
      bearish numeric not null,
      neutral numeric not null,
      volume bigint not null,
      call_volume bigint not null,
      put_volume bigint not null,
      trades bigint not null,
      primary key (trading_date, underlying, session, complex)
    )
  `.execute(db);
  await sql`
    create table flow_leaders_by_contract (
      trading_date date not null,
      sessions text not null,
      include_complex boolean not null,
      contract_id bigint not null,
      root text not null,
      contract_type text not null,
      date_of_expiry date not null,
      strike double precision not null,
      premium double precision not null,
      volume bigint not null,
      last_price double precision not null,
      implied_volatility double precision,
      open_interest integer,
      regular_close double precision,
      primary key (trading_date, sessions, include_complex, contract_id)
    )
  `.execute(db);
  // The sessions already stored (the same statements as src/db/flow-aggregates.ts, whole dates).
  await sql`
    insert into flow_totals_by_contract
    select t.trading_date, t.contract_id, t.session, t.complex, t.underlying, t.root, t.contract_type, t.date_of_expiry, t.strike,
      t.premium, t.bullish, t.bearish, t.neutral, t.volume, t.trades, l.ts, l.sequence, l.price, l.implied_volatility, l.open_interest
    from (
      select trading_date, contract_id, session, (trade_type = 'multileg' or 'complex' = any(flags)) as complex, underlying,
        min(root) as root, min(contract_type) as contract_type, min(date_of_expiry) as date_of_expiry, min(strike) as strike,
        sum(premium::numeric) as premium,
        coalesce(sum(premium::numeric) filter (where sentiment = 'bullish'), 0) as bullish,
        coalesce(sum(premium::numeric) filter (where sentiment = 'bearish'), 0) as bearish,
        coalesce(sum(premium::numeric) filter (where sentiment = 'neutral'), 0) as neutral,
        sum(size)::int8 as volume, count(*)::int8 as trades
      from prints where not cancelled
      group by 1, 2, 3, 4, 5
    ) t join (
      select distinct on (trading_date, contract_id, session, complex, underlying) trading_date, contract_id, session, complex, underlying,
        ts, sequence, price, implied_volatility, open_interest
      from (select trading_date, contract_id, session, (trade_type = 'multileg' or 'complex' = any(flags)) as complex, underlying,
          ts, sequence, price, implied_volatility, open_interest
        from prints where not cancelled) p
      order by trading_date, contract_id, session, complex, underlying, ts desc, sequence desc
    ) l using (trading_date, contract_id, session, complex, underlying)
  `.execute(db);
  await sql`
    insert into flow_totals_by_underlying
    select trading_date, underlying, session, complex, sum(premium), sum(bullish), sum(bearish), sum(neutral), sum(volume)::int8,
      coalesce(sum(volume) filter (where contract_type = 'call'), 0)::int8, coalesce(sum(volume) filter (where contract_type = 'put'), 0)::int8,
      sum(trades)::int8
    from flow_totals_by_contract
    group by 1, 2, 3, 4
  `.execute(db);
  await sql`
    insert into flow_leaders_by_contract
    select t.trading_date, c.sessions, i.include_complex, t.contract_id, min(t.root), min(t.contract_type), min(t.date_of_expiry), min(t.strike),
      sum(t.premium)::float8, sum(t.volume)::int8,
      (array_agg(t.last_price order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_implied_volatility order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_open_interest order by t.last_ts desc, t.last_sequence desc))[1],
      (select r.last_price from flow_totals_by_contract r where r.trading_date = t.trading_date and r.contract_id = t.contract_id and r.session = 'rth'
        order by r.last_ts desc, r.last_sequence desc limit 1)
    from flow_totals_by_contract t
    join (values ('rth', '{rth,curb,other}'::text[]), ('gth', '{gth}'::text[]), ('all', '{gth,rth,curb,other}'::text[])) as c(sessions, members) on t.session = any(c.members)
    join (values (true), (false)) as i(include_complex) on i.include_complex or not t.complex
    group by 1, 2, 3, 4
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists flow_leaders_by_contract`.execute(db);
  await sql`drop table if exists flow_totals_by_underlying`.execute(db);
  await sql`drop table if exists flow_totals_by_contract`.execute(db);
}
