/**
 * The notices of writes that can change an answer at "now" (migration 20261129T020000: a market
 * data load, a minute mapped to its book, a book's stored answers, a stored drift), sent by
 * PostgreSQL at each such commit on ANSWERS_CHANNEL to every listening connection.
 */
import pg from 'pg';

/** The LISTEN/NOTIFY channel of the writes that can change an answer at "now". */
export const ANSWERS_CHANNEL = 'oads_answers';

export interface AnswersListener {
  end(): Promise<void>;
}

/**
 * Opens a connection of its own that LISTENs on ANSWERS_CHANNEL: each notice calls `onChange`
 * once it is listening, `onListening` says it is; a lost connection is ended and reported to
 * `onLost` (the caller listens again when it wants to).
 */
export async function listenForAnswerChanges(
  connectionString: string,
  handlers: { onListening(): void; onChange(): void; onLost(error: Error): void },
): Promise<AnswersListener> {
  const client = new pg.Client({ connectionString, application_name: 'oads-answers' });
  client.on('notification', (message) => {
    if (message.channel === ANSWERS_CHANNEL) handlers.onChange();
  });
  client.on('error', (error) => {
    handlers.onLost(error);
    client.end().catch(() => undefined);
  });
  client.on('end', () => handlers.onLost(new Error('the notices connection ended')));
  await client.connect();
  await client.query(`listen ${ANSWERS_CHANNEL}`);
  handlers.onListening();
  return client;
}
