/**
 * The AsyncAPI 3 document of GET /v1/stream, served at /v1/asyncapi.json: every channel of
 * channels.ts and every message of the protocol, the payloads of data messages taken from the
 * contract's own schemas (Print, PremiumDriftBucket, KeyLevels, FuturesTrade, Error), so a stream's bodies and
 * the REST routes' are described once. The limits stated are stream-protocol.ts's.
 */
import type { ApiContract } from '../api-contract/openapi.js';
import { CANCELLED_PRINT_FIELDS } from '../db/print-events.js';
import { CHANNELS, MAX_INDEX_SYMBOLS, MAX_PRINTS_SYMBOLS, NOT_STREAM_PARAMETERS } from './channels.js';
import { CLOSE, type StreamLimits } from '../api-contract/stream-protocol.js';
import { capturedExampleData, messageExamples, type StreamExampleData } from './asyncapi-examples.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The contract's schemas that `roots` reach through $ref. */
function reachableSchemas(contract: ApiContract, roots: readonly string[]): Json {
  const all = ((contract.document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const out: Json = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node as Json)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/'))
          add(value.slice('#/components/schemas/'.length));
        else visit(value);
      }
    }
  };
  const add = (name: string): void => {
    if (name in out) return;
    const schema = all[name];
    if (!schema) throw new Error(`schema ${name} is not in the contract`);
    out[name] = schema;
    visit(schema);
  };
  roots.forEach(add);
  return out;
}

const seq = {
  type: 'integer',
  minimum: 0,
  description:
    "The stream's message number: 1, 2, 3… without gaps (0 only on the error sent before a refused connection closes). Reconnect with resume=<stream_id>&last_seq=<the last one read> to get the rest.",
};
const subscriptionId = { type: 'string', description: 'The subscription, as the subscribed message named it.', examples: ['s1'] };
const request = { type: ['string', 'null'], description: 'The `id` of the client message this answers, if it gave one.' };
const replay = {
  type: 'boolean',
  description:
    'True when the message replays the last completed session (LIVE_MODE=replay, or outside market hours, looping from its open again at its end): nothing new was loaded.',
};

function message(name: string, summary: string, payload: Json): Json {
  return { name, title: name, summary, contentType: 'application/json', payload };
}

function object(required: string[], properties: Json): Json {
  return { type: 'object', additionalProperties: false, required, properties };
}

function serverMessage(type: string, extra: Json, required: string[]): Json {
  return object(['seq', 'type', ...required], { seq, type: { const: type }, ...extra });
}

/** The contract's OptionPrint properties named in `fields` (a print_cancelled item: the fields that identify a print). */
function printFields(contract: ApiContract, fields: readonly string[]): Json {
  const print = (((contract.document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>).OptionPrint;
  const properties = (print?.properties ?? {}) as Record<string, Json>;
  return object(
    [...fields],
    Object.fromEntries(
      fields.map((f) => {
        const schema = properties[f];
        if (!schema) throw new Error(`OptionPrint has no property ${f}`);
        return [f, schema];
      }),
    ),
  );
}

export function asyncApiDocument(
  contract: ApiContract,
  limits: StreamLimits,
  version: string,
  exampleData: StreamExampleData = capturedExampleData(),
): Json {
  const params = (description: string): Json => ({
    type: 'object',
    description,
    additionalProperties: {
      oneOf: [{ type: ['string', 'number', 'boolean'] }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }],
    },
  });
  const subscribeOf = (channel: string, description: string, extra: Json = {}): Json =>
    message(
      `subscribe_${channel}`,
      `Subscribe to ${channel}.`,
      object(['type', 'channel'], {
        type: { const: 'subscribe' },
        id: { type: ['string', 'number'], description: 'Echoed as `request` in the answer.' },
        channel: { const: channel },
        params: params(description),
        ...extra,
      }),
    );
  const messages: Record<string, Json> = {
    auth: message(
      'auth',
      'First message of a connection without an Authorization header (browsers).',
      object(['type', 'key'], {
        type: { const: 'auth' },
        key: { type: 'string' },
        resume: { type: 'string', description: 'A stream id to resume.' },
        last_seq: { type: 'integer', minimum: 0 },
      }),
    ),
    subscribe_prints: subscribeOf(
      'prints',
      `The parameters of /v1/options/trades, checked by its rules, except date, start_time, end_time, limit and cursor_id: underlying_symbols lists 1 to ${MAX_PRINTS_SYMBOLS} underlyings, or is left out for the whole market. session gth or all needs the overnight entitlement.`,
      {
        format: {
          enum: ['full', 'compact'],
          default: 'full',
          description:
            "How each print is sent. full (the default): the body /v1/options/trades serves (an OptionPrint object). compact: the array of its values, in the order of the message's `fields` (the OptionPrint field names): the same values in about 40% of the bytes.",
        },
      },
    ),
    subscribe_premium_drift: subscribeOf(
      'premium_drift',
      'The parameters of /v1/options/flow/premium-drift, checked by its rules, except date, start_time and end_time (the current session).',
    ),
    subscribe_index_values: subscribeOf(
      'index_values',
      `symbols: 1 to ${MAX_INDEX_SYMBOLS} indices of /v1/indices (a list or comma-separated; symbol for one); interval, if given, is 1m. The one-minute values of the current trading date as they are loaded.`,
    ),
    subscribe_levels: subscribeOf(
      'levels',
      'The parameters of /v1/options/levels, checked by its rules, except date and at (the current session, at its newest minute of data).',
    ),
    subscribe_futures_trades: subscribeOf(
      'futures_trades',
      'The parameters of /v1/futures/trades, checked by its rules, except date, start_time, end_time, order, limit and cursor_id: exactly one of symbol (a contract) and root, and the size, notional and aggressor_side filters.',
    ),
    unsubscribe: message(
      'unsubscribe',
      'End a subscription.',
      object(['type', 'subscription'], {
        type: { const: 'unsubscribe' },
        id: { type: ['string', 'number'] },
        subscription: subscriptionId,
      }),
    ),
    welcome: message(
      'welcome',
      'First message of a connection once admitted.',
      serverMessage(
        'welcome',
        {
          stream_id: { type: 'string', description: 'Resume this stream with it.' },
          resumed: { type: 'boolean' },
          replay,
          request_id: { type: 'string' },
          limits: object(
            [
              'max_client_message_bytes',
              'max_server_message_bytes',
              'max_subscriptions',
              'max_symbols',
              'max_buffered_bytes',
              'heartbeat_ms',
              'resume_window_ms',
              'levels_cadence_ms',
            ],
            Object.fromEntries(
              [
                'max_client_message_bytes',
                'max_server_message_bytes',
                'max_subscriptions',
                'max_symbols',
                'max_buffered_bytes',
                'heartbeat_ms',
                'resume_window_ms',
                'levels_cadence_ms',
              ].map((k) => [k, { type: 'integer' }]),
            ),
          ),
        },
        ['stream_id', 'resumed', 'replay', 'request_id', 'limits'],
      ),
    ),
    subscribed: message(
      'subscribed',
      'A subscription was added; params are the checked query, defaults applied.',
      serverMessage(
        'subscribed',
        {
          subscription: subscriptionId,
          channel: { enum: CHANNELS.map((c) => c.name) },
          request,
          params: {
            type: 'object',
            description: `The checked query, the route's defaults applied, without the parameters a stream does not take (${[...NOT_STREAM_PARAMETERS].join(', ')}).`,
            propertyNames: { not: { enum: [...NOT_STREAM_PARAMETERS] } },
          },
        },
        ['subscription', 'channel', 'request', 'params'],
      ),
    ),
    unsubscribed: message(
      'unsubscribed',
      'A subscription ended.',
      serverMessage('unsubscribed', { subscription: subscriptionId, request }, ['subscription', 'request']),
    ),
    error: message(
      'error',
      'A refused message or subscription (the REST error object: 400 naming each bad parameter, 403, 429…); a subscription ended because the account may no longer read it (403, naming the subscription); before a refused connection closes, with seq 0, and before a stream is closed for a revoked key or a suspended account.',
      serverMessage('error', { subscription: { type: ['string', 'null'] }, request, error: { $ref: '#/components/schemas/ApiError' } }, [
        'subscription',
        'request',
        'error',
      ]),
    ),
    prints: message(
      'prints',
      'New prints of one load (or one replay step), oldest first by (timestamp, sequence, contract): the order of /v1/options/trades read backwards, and its bodies (or, format compact, their values).',
      {
        ...serverMessage(
          'prints',
          {
            channel: { const: 'prints' },
            subscription: subscriptionId,
            replay,
            trading_date: { type: 'string', format: 'date' },
            loaded_at: { type: 'integer', description: 'When the load committed (a replay: the replayed instant), Unix ms.' },
            format: { const: 'compact', description: 'Present on a subscription of format compact.' },
            fields: {
              type: 'array',
              items: { type: 'string' },
              description: "format compact: the OptionPrint field names, in the order of each print's values.",
            },
            data: { type: 'array', minItems: 1 },
          },
          ['channel', 'subscription', 'replay', 'trading_date', 'loaded_at', 'data'],
        ),
        oneOf: [
          {
            title: 'full',
            description: 'Each print the body /v1/options/trades serves.',
            not: { required: ['format'] },
            properties: { data: { items: ref('OptionPrint') } },
          },
          {
            title: 'compact',
            description: 'Each print the array of its values, the value of fields[i] at i.',
            required: ['format', 'fields'],
            properties: {
              data: { items: { type: 'array', items: { type: ['string', 'number', 'integer', 'boolean', 'null', 'array'] } } },
            },
          },
        ],
      },
    ),
    print_cancelled: message(
      'print_cancelled',
      'Prints stored by an earlier load that a later load cancelled (a cancel record of a later file): drop them from the tape. Sent after the prints of the load that cancelled them, in its place in the stream (seq), and only to the subscriptions whose filters those prints passed (a subscription made after a print was streamed may be told of it too: an id not on the tape is ignored). /v1/options/trades no longer serves them, and the premium_drift channel sends the buckets they changed (the route leaves cancelled prints out). A replay never sends cancelled prints.',
      serverMessage(
        'print_cancelled',
        {
          channel: { const: 'prints' },
          subscription: subscriptionId,
          trading_date: { type: 'string', format: 'date' },
          loaded_at: { type: 'integer', description: 'When the load that cancelled them committed, Unix ms.' },
          data: {
            type: 'array',
            minItems: 1,
            description:
              "The cancelled prints, oldest first by (timestamp, sequence, contract): the fields of each that identify it (id is the print's id in the prints message).",
            items: printFields(contract, CANCELLED_PRINT_FIELDS),
          },
        },
        ['channel', 'subscription', 'trading_date', 'loaded_at', 'data'],
      ),
    ),
    archive_loaded: message(
      'archive_loaded',
      'An earlier session (not the current one) was loaded again, for instance an archived session brought back: its prints are not streamed, but a client holding data of that date may read it again from the REST routes.',
      serverMessage(
        'archive_loaded',
        {
          channel: { const: 'prints' },
          subscription: subscriptionId,
          trading_date: { type: 'string', format: 'date' },
          rows: { type: 'integer', minimum: 0, description: 'The rows the load wrote for the date.' },
          loaded_at: { type: 'integer', description: 'When the load committed, Unix ms.' },
        },
        ['channel', 'subscription', 'trading_date', 'rows', 'loaded_at'],
      ),
    ),
    premium_drift: message(
      'premium_drift',
      "The buckets of /v1/options/flow/premium-drift that changed since the last message (all of them first); during a replay, the replayed session's buckets up to the replayed instant, marked replay.",
      serverMessage(
        'premium_drift',
        {
          channel: { const: 'premium_drift' },
          subscription: subscriptionId,
          replay,
          data: { type: 'array', minItems: 1, items: ref('PremiumDriftBucket') },
        },
        ['channel', 'subscription', 'replay', 'data'],
      ),
    ),
    index_values: message(
      'index_values',
      'The one-minute values of one index that a load of bars wrote, as /v1/indices/bars?interval=1m serves them (IndexBar: minutes 1, volume null): minutes of the current trading date inside its calculation window (09:30 to 16:00 ET, 13:00 on an early close), oldest first, one message per index and load. Only new loads are streamed: nothing is sent on subscribing (read /v1/indices/bars for the minutes before), a load of an earlier date sends nothing, and a minute loaded again (a correction) is sent again.',
      serverMessage(
        'index_values',
        {
          channel: { const: 'index_values' },
          subscription: subscriptionId,
          symbol: { type: 'string', description: 'The index.' },
          replay,
          data: { type: 'array', minItems: 1, items: ref('IndexBar') },
        },
        ['channel', 'subscription', 'symbol', 'replay', 'data'],
      ),
    ),
    levels: message(
      'levels',
      `The data of /v1/options/levels: on subscribing, every ${Math.round(limits.levelsCadenceMs / 1000)} seconds, and when new prints change its levels.`,
      serverMessage('levels', { channel: { const: 'levels' }, subscription: subscriptionId, replay, data: ref('KeyLevels') }, [
        'channel',
        'subscription',
        'replay',
        'data',
      ]),
    ),
    futures_trades: message(
      'futures_trades',
      "New futures trades of one load that pass the subscription's filters, oldest first by (timestamp, sequence, match, contract): the bodies /v1/futures/trades serves. Loads of a trade date before the route's default one (the trade date trading now, else the last one closed) are not streamed; futures trades are not replayed.",
      serverMessage(
        'futures_trades',
        {
          channel: { const: 'futures_trades' },
          subscription: subscriptionId,
          trade_date: { type: 'string', format: 'date', description: 'The CME trade date of the trades.' },
          loaded_at: { type: 'integer', description: 'When the load committed, Unix ms.' },
          data: { type: 'array', minItems: 1, items: ref('FuturesTrade') },
        },
        ['channel', 'subscription', 'trade_date', 'loaded_at', 'data'],
      ),
    ),
  };
  const examples = messageExamples(limits, exampleData);
  for (const [name, m] of Object.entries(messages)) {
    const payload = examples[name];
    if (!payload) throw new Error(`the AsyncAPI message ${name} has no example`);
    m.examples = [{ name: `${name}_example`, summary: `A ${name} message.`, payload }];
  }
  const refTo = (name: string): Json => ({ $ref: `#/components/messages/${name}` });
  const control = ['auth', 'unsubscribe', 'welcome', 'subscribed', 'unsubscribed', 'error'];
  const channels: Json = {
    control: {
      address: '/v1/stream',
      title: 'Connection control',
      description: 'Messages of every connection: authentication, subscriptions and errors.',
      messages: Object.fromEntries(control.map((m) => [m, refTo(m)])),
    },
    ...Object.fromEntries(
      CHANNELS.map((c) => [
        c.name,
        {
          address: '/v1/stream',
          title: c.name,
          description: `${c.summary} Streams the data of: ${c.operations.join(', ')}.`,
          messages: {
            [`subscribe_${c.name}`]: refTo(`subscribe_${c.name}`),
            [c.name]: refTo(c.name),
            ...(c.name === 'prints' ? { print_cancelled: refTo('print_cancelled'), archive_loaded: refTo('archive_loaded') } : {}),
          },
        },
      ]),
    ),
  };
  const operations: Json = {
    ...Object.fromEntries(
      control.map((m) => [
        `${m}Message`,
        {
          action: ['auth', 'unsubscribe'].includes(m) ? 'receive' : 'send',
          channel: { $ref: '#/channels/control' },
          messages: [{ $ref: `#/channels/control/messages/${m}` }],
        },
      ]),
    ),
    ...Object.fromEntries(
      CHANNELS.flatMap((c) => [
        [
          `subscribe_${c.name}`,
          {
            action: 'receive',
            channel: { $ref: `#/channels/${c.name}` },
            messages: [{ $ref: `#/channels/${c.name}/messages/subscribe_${c.name}` }],
          },
        ],
        [
          `send_${c.name}`,
          { action: 'send', channel: { $ref: `#/channels/${c.name}` }, messages: [{ $ref: `#/channels/${c.name}/messages/${c.name}` }] },
        ],
      ]),
    ),
    send_print_cancelled: {
      action: 'send',
      channel: { $ref: '#/channels/prints' },
      messages: [{ $ref: '#/channels/prints/messages/print_cancelled' }],
    },
    send_archive_loaded: {
      action: 'send',
      channel: { $ref: '#/channels/prints' },
      messages: [{ $ref: '#/channels/prints/messages/archive_loaded' }],
    },
  };
  const closeCodes = Object.entries(CLOSE)
    .map(([name, code]) => `${code} ${name}`)
    .join(', ');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Options Analytics Data Service streams',
      version,
      description: [
        'GET /v1/stream upgrades to a WebSocket. Authenticate with `Authorization: Bearer <API_KEY>` on the upgrade, or send `{"type":"auth","key":"<API_KEY>"}` first',
        `(within ${limits.authTimeoutMs / 1000} s; at most ${limits.unauthenticatedPerNetwork} such connections of a client network (/24 IPv4, /56 IPv6) may wait at once, and an upgrade without the header needs room in the network's budget of requests without a valid key, which a connection that ends without a key spends: beyond either the upgrade is answered HTTP 429 rate_limited with Retry-After). An upgrade counts as a request against the rate limits and is in the request log and /v1/account/usage; an account may open`,
        `${limits.connectionsPerWindow} connections per ${limits.connectionWindowMs / 60_000} minutes, after which a ${limits.cooldownMs / 60_000}-minute cooldown (429 cooldown) refuses more.`,
        `Limits: client messages ${limits.maxClientMessageBytes} bytes, server messages ${limits.maxServerMessageBytes} bytes, ${limits.maxSubscriptions} subscriptions per connection,`,
        `${MAX_PRINTS_SYMBOLS} underlyings per prints subscription, ${limits.maxBufferedBytes} bytes waiting to be read (beyond it the connection is closed as a slow consumer).`,
        `The server pings every ${limits.pingIntervalMs / 1000} s and closes a connection that did not answer. Every server message carries seq; a client reconnecting`,
        `within ${limits.resumeWindowMs / 1000} s with ?resume=<stream_id>&last_seq=<n> gets the messages after n, then the stream continues (one connection per stream: the older one is closed).`,
        'A resume may reach any HTTP worker process of the service: the stream moves there from the one that held it, with its numbering, so the messages after n come without gaps or duplicates wherever it lands.',
        'Outside market hours (or always, with LIVE_MODE=replay) the streams replay the last completed session, messages marked replay: from its open as its close passes, at REPLAY_SPEED times real time, and again from its open each time it reaches its end, for as long as no regular session is open, so a stream opened on an evening or a weekend gets a moving tape.',
        'A replay runs on one clock for the whole service (where it stands is a function of the service clock alone), and a stream keeps its own place in it: a resume during a replay goes on from the replayed instant the stream had reached, on whichever worker it lands.',
        "A load that cancels prints stored by an earlier load tells each prints subscription those prints had matched (print_cancelled), after the load's own prints.",
        'A resume is refused (4410) when no worker holds the stream for that account with the messages after n (its window has passed); the client then opens a new stream.',
        "Entitlements are checked again before each batch of new prints (within the key cache's few seconds of a change): a subscription the account may no longer read ends with an error message (403 forbidden) naming it; a revoked key or a suspended account closes the connection (4401, 4403).",
        'A plain GET /v1/stream without the upgrade is answered 426 Upgrade Required (error code upgrade_required, header Upgrade: websocket).',
        `A refusal sends an error message (seq 0), then closes with a code: ${closeCodes}; the reason starts with the error code.`,
      ].join(' '),
    },
    defaultContentType: 'application/json',
    servers: {
      service: {
        host: 'localhost:8080',
        protocol: 'ws',
        pathname: '/v1/stream',
        description:
          'The service itself: the origin this document was requested at, or the PUBLIC_URL it is configured with (the route sets host and protocol).',
        security: [{ $ref: '#/components/securitySchemes/bearer' }],
      },
    },
    channels,
    operations,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key, as on the REST routes.' } },
      messages,
      schemas: reachableSchemas(contract, ['OptionPrint', 'PremiumDriftBucket', 'KeyLevels', 'IndexBar', 'ApiError', 'FuturesTrade']),
    },
  };
}
