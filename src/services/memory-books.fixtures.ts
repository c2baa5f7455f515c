/**
 * The book repository in memory, for unit tests of the services (no database): books are kept as
 * their columns would be stored, minutes map to them, nothing is ever stale (a unit test's market
 * does not change under it) and every claim is granted.
 */
import type { BookExpirationColumns, BookFamily, StoredBook } from '../db/position-books.js';
import type { BookRepository } from './repositories.js';

export function memoryBooks(): BookRepository {
  const books: (StoredBook & { family: string; digest: string; chainDigest: string | null })[] = [];
  const minutes = new Map<string, number>();
  const answers = new Map<string, string>();
  const familyKey = (f: BookFamily): string => JSON.stringify([f.symbol, f.session, f.tradingDate]);
  const copy = <T>(value: T): T => structuredClone(value);
  let nextId = 1;
  return {
    changeLogPosition: () => Promise.resolve(0),
    loadUnitUnderWay: () => Promise.resolve(false),
    bookOfMinute: (family, instant) => {
      const id = minutes.get(`${familyKey(family)}|${instant}`);
      return Promise.resolve(id === undefined ? null : { bookId: id, instant });
    },
    newestBookBefore: (family, before) => {
      let best: { bookId: number; instant: number } | null = null;
      for (const [key, id] of minutes) {
        const [f, at] = key.split('|') as [string, string];
        const instant = Number(at);
        if (f === familyKey(family) && instant < before && (best === null || instant > best.instant)) best = { bookId: id, instant };
      }
      return Promise.resolve(best);
    },
    bookOfDigest: (family, digest) => Promise.resolve(books.find((b) => b.family === familyKey(family) && b.digest === digest)?.id ?? null),
    // Nothing is ever stale here, so a book of the chain and valuation time always answers.
    bookOfChain: (family, valuedAt, chainDigest) =>
      Promise.resolve(
        books.find((b) => b.family === familyKey(family) && b.valuedAt === valuedAt && b.chainDigest === chainDigest)?.id ?? null,
      ),
    reserveBookId: () => Promise.resolve(nextId++),
    storeBook: (family, book, reserved) => {
      const id = reserved ?? nextId++;
      books.push({
        id,
        family: familyKey(family),
        digest: book.digest,
        chainDigest: book.chainDigest ?? null,
        valuedAt: book.valuedAt,
        summary: copy(book.summary),
        expirations: copy(book.expirations as BookExpirationColumns[]),
      });
      return Promise.resolve(id);
    },
    mapBookMinute: (family, instant, bookId) => {
      minutes.set(`${familyKey(family)}|${instant}`, bookId);
      return Promise.resolve();
    },
    readBook: (bookId) => {
      const b = books.find((x) => x.id === bookId);
      return Promise.resolve(
        b === undefined ? null : { id: b.id, valuedAt: b.valuedAt, summary: copy(b.summary), expirations: copy(b.expirations) },
      );
    },
    storeBookAnswers: (bookId, instant, list) => {
      for (const a of list) answers.set(JSON.stringify([bookId, instant, a.operation, a.queryKey]), a.body);
      return Promise.resolve();
    },
    readBookAnswer: (bookId, instant, operation, queryKey) =>
      Promise.resolve(answers.get(JSON.stringify([bookId, instant, operation, queryKey])) ?? null),
    contractsUnchangedSince: () => Promise.resolve(true),
    minuteUnchangedSince: () => Promise.resolve(true),
    whileValuing: async (_key, value) => {
      await value();
      return true;
    },
  };
}
