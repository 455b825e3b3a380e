/**
 * The statements that create and fill the usage summary for one engine:
 * triggers that keep it in step with every insert and delete on `ledger`
 * (whoever runs them: the gateway, a bulk load, an operator), and the
 * one-off backfill of the rows that existed before.
 */
export interface UsageSummarySql {
  triggers: string[];
  backfill: string[];
}

/** The summary key of a row, as SQL over the row's columns (prefixed by `row`). */
function keyOf(row: string, month: (time: string) => string): string {
  return [
    month(`${row}time`),
    `${row}client_id`,
    `${row}method`,
    `${row}target`,
    `${row}outcome`,
    `case when ${row}outcome = 'denied' then coalesce(${row}denial_reason, 'unknown') else '' end`,
  ].join(', ');
}

const KEY = ['month', 'client_id', 'method', 'target', 'outcome', 'reason'];
const KEY_COLUMNS = KEY.join(', ');
const qualified = (alias: string): string => KEY.map((column) => `${alias}.${column}`).join(', ');
const DAY_MS = 86_400_000;
const dayOf = (time: string): string => `${time} - ${time} % ${DAY_MS}`;

// Integer division: whole seconds name the same month as the milliseconds.
const sqliteMonth = (time: string): string =>
  `cast(strftime('%s', ${time} / 1000, 'unixepoch', 'start of month') as integer) * 1000`;

const postgresMonth = (time: string): string =>
  `(extract(epoch from date_trunc('month', to_timestamp(${time} / 1000) at time zone 'UTC')) * 1000)::bigint`;

/** SQLite has row triggers only; each is one primary-key upsert or update per table. */
const SQLITE: UsageSummarySql = {
  triggers: [
    `create trigger ledger_usage_on_insert after insert on ledger begin
      insert into ledger_usage (${KEY_COLUMNS}, calls, spend)
        values (${keyOf('new.', sqliteMonth)}, 1, new.cost)
        on conflict (${KEY_COLUMNS})
        do update set calls = calls + 1, spend = spend + excluded.spend;
      insert into ledger_daily_calls (day, client_id, calls)
        values (${dayOf('new.time')}, new.client_id, 1)
        on conflict (day, client_id) do update set calls = calls + 1;
    end`,
    `create trigger ledger_usage_on_delete after delete on ledger begin
      update ledger_usage set calls = calls - 1, spend = spend - old.cost
        where (${KEY_COLUMNS}) = (${keyOf('old.', sqliteMonth)});
      update ledger_daily_calls set calls = calls - 1
        where (day, client_id) = (${dayOf('old.time')}, old.client_id);
    end`,
  ],
  backfill: backfill(sqliteMonth),
};

/**
 * PostgreSQL runs one trigger per statement over its transition table: a
 * batch of rows costs one grouped upsert. Keys are locked in sorted order,
 * so that replicas writing (or pruning) at once cannot deadlock. The
 * functions name the summary tables with the ledger's schema, so that a
 * session with another search_path (a bulk load naming `schema.ledger`)
 * still finds them, and no call has to switch search_path.
 */
const postgres = (schema: string): UsageSummarySql => {
  const usage = `${schema}.ledger_usage`;
  const daily = `${schema}.ledger_daily_calls`;
  return {
    triggers: [
      `create function ledger_usage_on_insert() returns trigger language plpgsql as $$
    begin
      insert into ${usage} as u (${KEY_COLUMNS}, calls, spend)
        select ${keyOf('', postgresMonth)}, count(*), sum(cost)
        from inserted group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
        on conflict (${KEY_COLUMNS})
        do update set calls = u.calls + excluded.calls, spend = u.spend + excluded.spend;
      insert into ${daily} as d (day, client_id, calls)
        select ${dayOf('time')}, client_id, count(*)
        from inserted group by 1, 2 order by 1, 2
        on conflict (day, client_id) do update set calls = d.calls + excluded.calls;
      return null;
    end $$`,
      `create function ledger_usage_on_delete() returns trigger language plpgsql as $$
    begin
      perform 1 from ${usage} u
        join (select distinct ${keyOf('', postgresMonth)} from removed) as g (${KEY_COLUMNS})
        using (${KEY_COLUMNS})
        order by ${KEY_COLUMNS} for update of u;
      update ${usage} u set calls = u.calls - g.calls, spend = u.spend - g.spend
        from (select ${keyOf('', postgresMonth)}, count(*), sum(cost) from removed
              group by 1, 2, 3, 4, 5, 6) as g (${KEY_COLUMNS}, calls, spend)
        where (${qualified('u')}) = (${qualified('g')});
      perform 1 from ${daily} d
        join (select distinct ${dayOf('time')}, client_id from removed) as g (day, client_id)
        using (day, client_id)
        order by day, client_id for update of d;
      update ${daily} d set calls = d.calls - g.calls
        from (select ${dayOf('time')}, client_id, count(*) from removed group by 1, 2)
          as g (day, client_id, calls)
        where (d.day, d.client_id) = (g.day, g.client_id);
      return null;
    end $$`,
      `create trigger ledger_usage_on_insert after insert on ledger
      referencing new table as inserted
      for each statement execute function ledger_usage_on_insert()`,
      `create trigger ledger_usage_on_delete after delete on ledger
      referencing old table as removed
      for each statement execute function ledger_usage_on_delete()`,
    ],
    backfill: backfill(postgresMonth),
  };
};

function backfill(month: (time: string) => string): string[] {
  return [
    `insert into ledger_usage (${KEY_COLUMNS}, calls, spend)
      select ${keyOf('', month)}, count(*), sum(cost) from ledger group by 1, 2, 3, 4, 5, 6`,
    `insert into ledger_daily_calls (day, client_id, calls)
      select ${dayOf('time')}, client_id, count(*) from ledger group by 1, 2`,
  ];
}

/** The statements for a SQLite ledger, or a PostgreSQL one in `schema` (a quoted identifier). */
export function usageSummarySql(
  connection: { driver: 'sqlite' } | { driver: 'postgres'; schema: string },
): UsageSummarySql {
  return connection.driver === 'postgres' ? postgres(connection.schema) : SQLITE;
}
