/**
 * Reference data for US listed options venues and sale conditions, as the platform stores them.
 *
 * Two code spaces meet here:
 * - The OPRA feed identifies a venue by a one-letter Participant ID and a sale condition by a
 *   one-letter Last Sale "Message Type" (OPRA Binary Output Specification, Participant IDs table and
 *   Equity and Index Last Sale message types).
 * - Massive (formerly Polygon.io) publishes numeric ids for both: options exchanges in the 300 range
 *   (GET /v3/reference/exchanges?asset_class=options) and options trade conditions 201 to 248
 *   (GET /v3/reference/conditions?asset_class=options, 33 entries). The platform stores these
 *   numeric ids; vendor files that carry OPRA letters are mapped in with the helpers below.
 *
 * Massive numbers both tables in OPRA letter order (exchange id = 300 + letter offset from 'A';
 * conditions A..J = 201..210, S = 219, a..v = 227..248), which the tables below follow entry by
 * entry rather than by formula, so a future renumbering shows up as a failing test, not a silent
 * shift.
 */

// ---------------------------------------------------------------------------------------------
// Exchanges
// ---------------------------------------------------------------------------------------------

/** The 17 venue short names of the interface specification, in the specification's order. */
export const EXCHANGE_NAMES = [
  'nom',
  'amex',
  'cboe',
  'ise',
  'arca',
  'phlx',
  'box',
  'mrcy',
  'gmni',
  'c2',
  'miax',
  'emld',
  'bx',
  'bzx',
  'edgx',
  'perl',
  'memx',
] as const;

export type ExchangeName = (typeof EXCHANGE_NAMES)[number];

export interface OptionVenue {
  /** Short name in the interface specification; null for a venue the specification omits. */
  readonly name: ExchangeName | null;
  /** Massive options exchange id, stored as the print's exchange_code. */
  readonly exchangeCode: number;
  /** OPRA Participant ID. */
  readonly opraParticipant: string;
  /** Operator's name of the venue. */
  readonly venue: string;
}

const VENUE_ROWS: readonly OptionVenue[] = [
  { name: 'amex', exchangeCode: 300, opraParticipant: 'A', venue: 'NYSE American Options' },
  { name: 'box', exchangeCode: 301, opraParticipant: 'B', venue: 'BOX Options Exchange' },
  { name: 'cboe', exchangeCode: 302, opraParticipant: 'C', venue: 'Cboe Options Exchange' },
  { name: 'emld', exchangeCode: 303, opraParticipant: 'D', venue: 'MIAX Emerald' },
  { name: 'edgx', exchangeCode: 304, opraParticipant: 'E', venue: 'Cboe EDGX Options' },
  { name: 'gmni', exchangeCode: 307, opraParticipant: 'H', venue: 'Nasdaq GEMX (ex ISE Gemini)' },
  { name: 'ise', exchangeCode: 308, opraParticipant: 'I', venue: 'Nasdaq ISE' },
  { name: 'mrcy', exchangeCode: 309, opraParticipant: 'J', venue: 'Nasdaq MRX (ex ISE Mercury)' },
  { name: 'miax', exchangeCode: 312, opraParticipant: 'M', venue: 'MIAX Options' },
  { name: 'arca', exchangeCode: 313, opraParticipant: 'N', venue: 'NYSE Arca Options' },
  { name: null, exchangeCode: 314, opraParticipant: 'O', venue: 'OPRA (processor-generated)' },
  { name: 'perl', exchangeCode: 315, opraParticipant: 'P', venue: 'MIAX Pearl' },
  { name: 'nom', exchangeCode: 316, opraParticipant: 'Q', venue: 'Nasdaq Options Market' },
  { name: null, exchangeCode: 318, opraParticipant: 'S', venue: 'MIAX Sapphire' },
  { name: 'bx', exchangeCode: 319, opraParticipant: 'T', venue: 'Nasdaq BX Options' },
  { name: 'memx', exchangeCode: 320, opraParticipant: 'U', venue: 'MEMX Options' },
  { name: 'c2', exchangeCode: 322, opraParticipant: 'W', venue: 'Cboe C2 Options' },
  { name: 'phlx', exchangeCode: 323, opraParticipant: 'X', venue: 'Nasdaq PHLX' },
  { name: 'bzx', exchangeCode: 325, opraParticipant: 'Z', venue: 'Cboe BZX Options' },
];

/**
 * Every venue that can appear on an OPRA print. MIAX Sapphire (S) and OPRA itself (O, prints the
 * processor generates) have codes but no short name in the specification, so their prints report
 * `unmapped_<code>`.
 */
export const OPTION_VENUES: readonly OptionVenue[] = Object.freeze(VENUE_ROWS.map((v) => Object.freeze(v)));

/** Short name to Massive exchange id, for the 17 named venues. */
export const exchangeCodeByName: Readonly<Record<ExchangeName, number>> = Object.freeze(
  Object.fromEntries(OPTION_VENUES.filter((v) => v.name !== null).map((v) => [v.name, v.exchangeCode])) as Record<ExchangeName, number>,
);

// Codes are small integers in one dense range, so an array lookup keeps exchangeName() free of
// hashing and allocation on the ingest path.
const EXCHANGE_CODE_BASE = 300;
const namesByOffset: (string | undefined)[] = [];
const codeByOpraLetter = new Map<string, number>();
for (const v of OPTION_VENUES) {
  if (v.name !== null) namesByOffset[v.exchangeCode - EXCHANGE_CODE_BASE] = v.name;
  codeByOpraLetter.set(v.opraParticipant, v.exchangeCode);
}
const unmappedNames = new Map<number, string>();

/** Short name of a Massive options exchange id, or `unmapped_<code>` for a venue without one. */
export function exchangeName(code: number): string {
  const offset = code - EXCHANGE_CODE_BASE;
  if (offset >= 0 && offset < namesByOffset.length) {
    const name = namesByOffset[offset];
    if (name !== undefined) return name;
  }
  // Memoised so a stream of prints from one unnamed venue does not build the string every time.
  let unmapped = unmappedNames.get(code);
  if (unmapped === undefined) {
    unmapped = `unmapped_${code}`;
    if (unmappedNames.size < 1024) unmappedNames.set(code, unmapped);
  }
  return unmapped;
}

/** Massive exchange id of an OPRA Participant ID (one uppercase letter), or null if unknown. */
export function exchangeCodeFromOpraLetter(letter: string): number | null {
  return codeByOpraLetter.get(letter) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Sale conditions
// ---------------------------------------------------------------------------------------------

/** Facts about a sale condition that print classification needs. */
export interface ConditionTraits {
  /** Cancels (busts) an earlier print; the record itself is not a print. */
  readonly cancel: boolean;
  /** Reported late (in or out of sequence); the print's time is its report time. */
  readonly late: boolean;
  /** Execution of an Intermarket Sweep Order. */
  readonly iso: boolean;
  /** Executed in an exchange auction (price improvement, solicitation, etc.). */
  readonly auction: boolean;
  /** Executed through a crossing mechanism (pre-arranged two-sided order). */
  readonly cross: boolean;
  /** Executed on a trading floor. */
  readonly floor: boolean;
  /** Leg of a multi-leg (complex) order. */
  readonly complex: boolean;
  /** Leg of a complex order tied to stock ("Stock Options" conditions). */
  readonly tied: boolean;
  /**
   * The price is an allocation of a complex order's net price between its legs, i.e. the complex
   * order traded against another complex order or a floor/compression package, not against the
   * single-leg book. The "against single leg(s)" conditions are not implied: those legs traded at
   * prices set by the leg's own book.
   */
  readonly implied: boolean;
  /** Executed outside regular trading hours (Extended Hours Trade). */
  readonly extHours: boolean;
  /** Opening (or, for REOP, reopening after a halt) trade of the series. */
  readonly opening: boolean;
}

/** Bit positions of ConditionTraits, for hot paths that combine several conditions. */
export const TraitBit = Object.freeze({
  cancel: 1 << 0,
  late: 1 << 1,
  iso: 1 << 2,
  auction: 1 << 3,
  cross: 1 << 4,
  floor: 1 << 5,
  complex: 1 << 6,
  tied: 1 << 7,
  implied: 1 << 8,
  extHours: 1 << 9,
  opening: 1 << 10,
});

type TraitName = keyof typeof TraitBit;

export interface SaleCondition {
  /** Massive options condition id, stored as the print's condition_code. */
  readonly code: number;
  /** OPRA Last Sale Message Type. */
  readonly opraMessageType: string;
  /** OPRA's four-letter mnemonic for the message type. */
  readonly mnemonic: string;
  readonly name: string;
  readonly traits: ConditionTraits;
}

/**
 * The platform's condition code for a print OPRA reports without a message type (a regular sale).
 * Massive publishes no id for it (its `conditions` array is empty), so the platform stores 0, which
 * carries no traits.
 */
export const REGULAR_SALE_CONDITION = 0;

function traitsOf(...names: TraitName[]): ConditionTraits {
  const has = (n: TraitName): boolean => names.includes(n);
  return Object.freeze({
    cancel: has('cancel'),
    late: has('late'),
    iso: has('iso'),
    auction: has('auction'),
    cross: has('cross'),
    floor: has('floor'),
    complex: has('complex'),
    tied: has('tied'),
    implied: has('implied'),
    extHours: has('extHours'),
    opening: has('opening'),
  });
}

// Massive ids and names as GET /v3/reference/conditions?asset_class=options lists them; letters and
// mnemonics from OPRA's Last Sale Message Type table. Traits are read off each condition's
// definition: "Stock Options" (OPRA: complex order with a stock leg) conditions are complex and
// tied; "against single leg(s)" conditions are complex but not implied; MCTP (a multilateral
// compression of proprietary-product positions, priced off-market) counts as a complex cross.
const CONDITION_ROWS: readonly [number, string, string, string, ConditionTraits][] = [
  [201, 'A', 'CANC', 'Canceled', traitsOf('cancel')],
  [202, 'B', 'OSEQ', 'Late and Out Of Sequence', traitsOf('late')],
  [203, 'C', 'CNCL', 'Last and Canceled', traitsOf('cancel')],
  [204, 'D', 'LATE', 'Late', traitsOf('late')],
  [205, 'E', 'CNCO', 'Opening Trade and Canceled', traitsOf('cancel', 'opening')],
  [206, 'F', 'OPEN', 'Opening Trade, Late, and Out Of Sequence', traitsOf('late', 'opening')],
  [207, 'G', 'CNOL', 'Only Trade and Canceled', traitsOf('cancel')],
  [208, 'H', 'OPNL', 'Opening Trade and Late', traitsOf('late', 'opening')],
  [209, 'I', 'AUTO', 'Automatic Execution', traitsOf()],
  [210, 'J', 'REOP', 'Reopening Trade', traitsOf('opening')],
  [219, 'S', 'ISOI', 'Intermarket Sweep Order', traitsOf('iso')],
  [227, 'a', 'SLAN', 'Single Leg Auction Non ISO', traitsOf('auction')],
  [228, 'b', 'SLAI', 'Single Leg Auction ISO', traitsOf('auction', 'iso')],
  [229, 'c', 'SLCN', 'Single Leg Cross Non ISO', traitsOf('cross')],
  [230, 'd', 'SCLI', 'Single Leg Cross ISO', traitsOf('cross', 'iso')],
  [231, 'e', 'SLFT', 'Single Leg Floor Trade', traitsOf('floor')],
  [232, 'f', 'MLET', 'Multi Leg auto-electronic trade', traitsOf('complex', 'implied')],
  [233, 'g', 'MLAT', 'Multi Leg Auction', traitsOf('complex', 'implied', 'auction')],
  [234, 'h', 'MLCT', 'Multi Leg Cross', traitsOf('complex', 'implied', 'cross')],
  [235, 'i', 'MLFT', 'Multi Leg floor trade', traitsOf('complex', 'implied', 'floor')],
  [236, 'j', 'MESL', 'Multi Leg auto-electronic trade against single leg(s)', traitsOf('complex')],
  [237, 'k', 'TLAT', 'Stock Options Auction', traitsOf('complex', 'tied', 'implied', 'auction')],
  [238, 'l', 'MASL', 'Multi Leg Auction against single leg(s)', traitsOf('complex', 'auction')],
  [239, 'm', 'MFSL', 'Multi Leg floor trade against single leg(s)', traitsOf('complex', 'floor')],
  [240, 'n', 'TLET', 'Stock Options auto-electronic trade', traitsOf('complex', 'tied', 'implied')],
  [241, 'o', 'TLCT', 'Stock Options Cross', traitsOf('complex', 'tied', 'implied', 'cross')],
  [242, 'p', 'TLFT', 'Stock Options floor trade', traitsOf('complex', 'tied', 'implied', 'floor')],
  [243, 'q', 'TESL', 'Stock Options auto-electronic trade against single leg(s)', traitsOf('complex', 'tied')],
  [244, 'r', 'TASL', 'Stock Options Auction against single leg(s)', traitsOf('complex', 'tied', 'auction')],
  [245, 's', 'TFSL', 'Stock Options floor trade against single leg(s)', traitsOf('complex', 'tied', 'floor')],
  [246, 't', 'CBMO', 'Multi Leg Floor Trade of Proprietary Products', traitsOf('complex', 'implied', 'floor')],
  [247, 'u', 'MCTP', 'Multilateral Compression Trade of Proprietary Products', traitsOf('complex', 'implied', 'cross')],
  [248, 'v', 'EXHT', 'Extended Hours Trade', traitsOf('extHours')],
];

/** The 33 options sale conditions Massive publishes, in code order. */
export const SALE_CONDITIONS: readonly SaleCondition[] = Object.freeze(
  CONDITION_ROWS.map(([code, opraMessageType, mnemonic, name, traits]) => Object.freeze({ code, opraMessageType, mnemonic, name, traits })),
);

/** Traits of a code Massive does not publish (and of REGULAR_SALE_CONDITION): all false. */
export const NO_TRAITS: ConditionTraits = traitsOf();

const CONDITION_CODE_BASE = 200;
const traitsByOffset: (ConditionTraits | undefined)[] = [];
const maskByOffset: number[] = [];
const codeByOpra = new Map<string, number>();
for (const c of SALE_CONDITIONS) {
  const offset = c.code - CONDITION_CODE_BASE;
  traitsByOffset[offset] = c.traits;
  let mask = 0;
  for (const name of Object.keys(TraitBit) as TraitName[]) {
    if (c.traits[name]) mask |= TraitBit[name];
  }
  maskByOffset[offset] = mask;
  codeByOpra.set(c.opraMessageType, c.code);
  codeByOpra.set(c.mnemonic, c.code);
}
// OPRA's mnemonic for the single-leg cross ISO is SCLI; SLCI, its siblings' pattern, is also seen.
codeByOpra.set('SLCI', 230);

/**
 * Traits of a Massive options condition code. Unknown codes (retired ids in the gaps of 201..248,
 * REGULAR_SALE_CONDITION, anything else) have every trait false: the print is then treated as an
 * ordinary electronic single-leg sale, which is what the bulk of unconditioned OPRA prints are.
 */
export function conditionTraits(code: number): ConditionTraits {
  return traitsByOffset[code - CONDITION_CODE_BASE] ?? NO_TRAITS;
}

/** The same traits as a TraitBit mask (0 for unknown codes); allocation-free for ingest. */
export function conditionTraitMask(code: number): number {
  return maskByOffset[code - CONDITION_CODE_BASE] ?? 0;
}

/**
 * Massive condition code of an OPRA Last Sale Message Type. Accepts the one-letter type (case
 * matters: 'a' is SLAN, 'A' is CANC) or the four-letter mnemonic ('ISOI', 'SLAN'). A blank or empty
 * type is a regular sale and yields REGULAR_SALE_CONDITION. Anything else yields null.
 */
export function conditionCodeFromOpra(letters: string): number | null {
  if (letters.trim() === '') return REGULAR_SALE_CONDITION;
  return codeByOpra.get(letters.trim()) ?? null;
}
