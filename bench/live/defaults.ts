/**
 * bench/live's load unless set: 64 connections over 16 accounts (issue 32 §6). Imported before
 * ../support.js, which reads them when it loads.
 */
process.env.BENCH_CONNECTIONS ??= '64';
process.env.BENCH_ACCOUNTS ??= '16';
