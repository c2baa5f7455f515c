/**
 * The worked example of Cboe's VIX methodology, as test data: an SPX near term and next term whose
 * index is 13.93. Figures from Cboe, "VIX White Paper" (2019 edition, step-by-step example) and Cboe,
 * "Cboe Volatility Index Methodology" / "Mathematics Methodology" (the same example: Appendix 3 the
 * inputs and intermediate values, Appendix 5 each included strike's midpoint Q(K) and ΔK). The
 * strike tables were transcribed from public reproductions of those appendices, not read from
 * Cboe's PDF here; the test checks the transcription against the printed strip sums (to 1e-10).
 *
 * Appendix 5 prints the included strikes' midpoints, not their bids and asks: those strikes are
 * quoted here at bid = ask = Q(K). Where the raw quotes are printed (the ends of each strip, the
 * strikes whose zero bids are skipped or stop a walk, and the two strikes that give F and Q(K0)),
 * they are used as printed; a zero bid printed without its ask has the ask left out (null).
 */
import type { ChainQuote } from './quotes.js';

/** Appendix 3: minutes to settlement, T, R, F, K0 and the printed intermediate values of each term. */
export const VIX_EXAMPLE = {
  near: {
    minutes: 34_484,
    time: 0.0656088,
    rate: 0.00031664,
    forward: 1962.89996,
    k0: 1960,
    /** Σ ΔK/K² e^{RT} Q(K), Appendix 5 (10 decimals). */
    sum: 0.0006320516,
    /** (2/T)·sum, printed to 6 decimals. */
    scaledSum: 0.019267,
    /** (1/T)(F/K0 − 1)². */
    forwardTerm: 0.00003337,
    variance: 0.019233906,
    /** Where the walks stop (the second consecutive zero bid) and the strip's ends: read off the printed quotes and strip. */
    putStop: 1360,
    callStop: 2175,
    lowest: 1370,
    highest: 2125,
  },
  next: {
    minutes: 44_954,
    time: 0.0855289,
    rate: 0.00028797,
    forward: 1962.40006,
    k0: 1960,
    sum: 0.0008314016,
    scaledSum: 0.019441,
    forwardTerm: 0.00001753,
    variance: 0.019423884,
    putStop: 1225,
    callStop: null,
    lowest: 1275,
    highest: 2200,
  },
  /** The 30-day index, printed to two decimals. */
  value: 13.93,
} as const;

/**
 * The 2014 edition of the white paper prices the same quotes at another instant: valued at 9:46 a.m.
 * Chicago time, a near term 25 days away settling at the 8:30 a.m. CT open (AM, standard SPX) and a
 * next term 32 days away settling at the 3:00 p.m. CT close (PM, SPX Weeklys). Its printed T, R, the
 * forward term (1/T)(F/K0 − 1)², σ² and the index, as reproduced in public tests of that edition.
 */
export const VIX_EXAMPLE_2014 = {
  near: { minutes: 35_924, time: 0.0683486, rate: 0.000305, forwardTerm: 0.00003203, variance: 0.01846292 },
  next: { minutes: 46_394, time: 0.0882686, rate: 0.000286, forwardTerm: 0.00001699, variance: 0.01882101 },
  value: 13.685821,
} as const;

/** Included strikes and their Q(K) (Appendix 5), "strike Q" pairs; K0 = 1960 is listed with its Q = (C + P)/2. */
const NEAR_STRIP = `
1370 .2 1375 .125 1380 .15 1385 .225 1390 .225 1395 .125 1400 .125 1410 .225 1420 .225
1425 .175 1430 .225 1435 .275 1440 .175 1445 .225 1450 .2 1455 .25 1460 .25 1465 .25 1470 .25
1475 .2 1480 .25 1485 .35 1490 .175 1495 .275 1500 .325 1505 .325 1510 .3 1515 .3 1520 .35
1525 .35 1530 .325 1535 .375 1540 .375 1545 .375 1550 .5 1555 .425 1560 .425 1565 .425 1570 .475
1575 .55 1580 .525 1585 .525 1590 .525 1595 .525 1600 .675 1605 .575 1610 .625 1615 .625 1620 .625
1625 .675 1630 .675 1635 .725 1640 .725 1645 .775 1650 .675 1655 .825 1660 .825 1665 .875 1670 .875
1675 .925 1680 .975 1685 1.025 1690 1.025 1695 1.075 1700 1.125 1705 1.125 1710 1.175 1715 1.225
1720 1.275 1725 1.325 1730 1.375 1735 1.425 1740 1.475 1745 1.55 1750 1.6 1755 1.675 1760 1.75
1765 1.825 1770 1.9 1775 2.0 1780 2.075 1785 2.175 1790 2.25 1795 2.375 1800 2.525 1805 2.625
1810 2.775 1815 2.95 1820 3.075 1825 3.3 1830 3.45 1835 3.65 1840 3.9 1845 4.1 1850 4.35 1855 4.65
1860 4.95 1865 5.25 1870 5.6 1875 6.0 1880 6.4 1885 6.85 1890 7.35 1895 7.9 1900 8.3 1905 9.0
1910 9.65 1915 10.6 1920 11.4 1925 12.1 1930 13.25 1935 14.15 1940 15.25 1945 16.55 1950 18.25
1955 19.75 1960 22.775
1965 21.05 1970 18.1 1975 15.25 1980 12.75 1985 10.45 1990 8.45 1995 6.65 2000 4.95 2005 3.8
2010 2.875 2015 2.025 2020 1.45 2025 1.125 2030 .725 2035 .525 2040 .5 2045 .4 2050 .25 2055 .325
2060 .225 2065 .175 2070 .15 2075 .15 2080 .25 2085 .225 2090 .1 2095 .2 2100 .1 2125 .1`;

const NEXT_STRIP = `
1275 .075 1325 .15 1350 .15 1375 .175 1400 .2 1425 .25 1450 .3 1475 .35 1500 .4 1510 .425
1520 .45 1525 .475 1530 .5 1540 .525 1550 .55 1555 .575 1560 .6 1565 .625 1570 .65 1575 .675
1580 .675 1585 .7 1590 .725 1595 .75 1600 .775 1605 .8 1610 .825 1615 .85 1620 .875 1625 .9
1630 .95 1635 .975 1640 1.0 1645 1.025 1650 1.075 1655 1.1 1660 1.15 1665 1.2 1670 1.225
1675 1.275 1680 1.325 1685 1.375 1690 1.425 1695 1.475 1700 1.525 1705 1.6 1710 1.675 1715 1.725
1720 1.8 1725 1.85 1730 1.925 1735 2.0 1740 2.1 1745 2.175 1750 2.275 1755 2.375 1760 2.475
1765 2.575 1770 2.725 1775 2.825 1780 3.0 1785 3.1 1790 3.25 1795 3.45 1800 3.6 1805 3.8 1810 3.95
1815 4.2 1820 4.4 1825 4.65 1830 4.9 1835 5.15 1840 5.45 1845 5.75 1850 6.05 1855 6.45 1860 6.75
1865 7.15 1870 7.65 1875 8.15 1880 8.6 1885 9.2 1890 9.75 1895 10.4 1900 11.1 1905 11.8 1910 12.6
1915 13.45 1920 14.4 1925 15.4 1930 16.4 1935 17.6 1940 18.8 1945 20.2 1950 21.6 1955 23.2
1960 26.1
1965 24.15 1970 21.1 1975 18.3 1980 15.7 1985 13.3 1990 11.1 1995 9.15 2000 7.4 2005 5.85 2010 4.65
2015 3.55 2020 2.7 2025 2.05 2030 1.55 2035 1.15 2040 .875 2045 .675 2050 .575 2060 .35 2070 .25
2075 .2 2100 .15 2125 .1 2150 .1 2200 .075`;

/** ΔK that Appendix 5 prints as other than 5 (every other included strike's is 5). */
export const VIX_EXAMPLE_WIDE_INTERVALS = {
  near: new Map([
    [1400, 7.5],
    [1410, 10],
    [1420, 7.5],
    [2100, 15],
    [2125, 25],
  ]),
  next: new Map([
    [1275, 50],
    [1325, 37.5],
    [1350, 25],
    [1375, 25],
    [1400, 25],
    [1425, 25],
    [1450, 25],
    [1475, 25],
    [1500, 17.5],
    [1510, 10],
    [1520, 7.5],
    [1530, 7.5],
    [1540, 10],
    [1550, 7.5],
    [2050, 7.5],
    [2060, 10],
    [2070, 7.5],
    [2075, 15],
    [2100, 25],
    [2125, 25],
    [2150, 37.5],
    [2200, 50],
  ]),
} as const;

/** strike → Q(K) of a strip. */
export function stripPrices(term: 'near' | 'next'): Map<number, number> {
  const tokens = (term === 'near' ? NEAR_STRIP : NEXT_STRIP).trim().split(/\s+/).map(Number);
  const out = new Map<number, number>();
  for (let i = 0; i < tokens.length; i += 2) out.set(tokens[i] as number, tokens[i + 1] as number);
  return out;
}

type Row = [strike: number, type: ChainQuote['type'], bid: number, ask: number | null];

/** Printed raw quotes: the mids of the K0 and forward strikes, the strip's ends, the skipped and stopping strikes. */
const NEAR_RAW: readonly Row[] = [
  [1960, 'call', 24.25, 24.25],
  [1960, 'put', 21.3, 21.3],
  [1965, 'put', 23.15, 23.15],
  [1370, 'put', 0.05, 0.35],
  [1375, 'put', 0.1, 0.15],
  [1380, 'put', 0.1, 0.2],
  [2095, 'call', 0.05, 0.35],
  [2100, 'call', 0.05, 0.15],
  [2125, 'call', 0.05, 0.15],
  // Excluded: interior zero bids the walk skips, the pairs that stop it, and quotes beyond the stop.
  [1345, 'put', 0, 0.15],
  [1350, 'put', 0.05, 0.15],
  [1355, 'put', 0.05, 0.35],
  [1360, 'put', 0, 0.35],
  [1365, 'put', 0, 0.35],
  [1405, 'put', 0, null],
  [1415, 'put', 0, null],
  [2120, 'call', 0, 0.15],
  [2150, 'call', 0, 0.1],
  [2175, 'call', 0, 0.05],
  [2200, 'call', 0, 0.05],
  [2225, 'call', 0.05, 0.1],
  [2250, 'call', 0, 0.05],
];

const NEXT_RAW: readonly Row[] = [
  [1960, 'call', 27.3, 27.3],
  [1960, 'put', 24.9, 24.9],
  [1225, 'put', 0, null],
  [1250, 'put', 0, null],
  [1300, 'put', 0, null],
];

/** The example's quotes of a term: the strip at bid = ask = Q(K), then the printed raw quotes over them. */
export function vixExampleQuotes(term: 'near' | 'next'): ChainQuote[] {
  const k0 = VIX_EXAMPLE[term].k0;
  const quotes = new Map<string, ChainQuote>();
  for (const [strike, q] of stripPrices(term)) {
    if (strike === k0) continue;
    const type = strike < k0 ? 'put' : 'call';
    quotes.set(`${strike}${type}`, { strike, type, bid: q, ask: q });
  }
  for (const [strike, type, bid, ask] of term === 'near' ? NEAR_RAW : NEXT_RAW) quotes.set(`${strike}${type}`, { strike, type, bid, ask });
  return [...quotes.values()];
}
