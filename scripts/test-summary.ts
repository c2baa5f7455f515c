// The closing lines of `make test`: the counts of every test runner of the run, a line per tier,
// then the whole run's count added up as the last line, in the form pytest closes a run with
// ("===== 4181 passed in 372.10s =====", failures and skips named only when there are any), the
// form log readers and CI already know, so the run's result is read from the run's last line. Reads the reports the runners
// wrote into build/test-results: vitest's JSON reports (one per tier) and Schemathesis's JUnit XML
// (one test case per operation; the generated cases are counted from its closing "Test cases"
// line, kept beside the XML). A report that is missing is an error: a tier that did not run must
// not read as zero failures.
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] ?? 'build/test-results');

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function read(file: string): string {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    process.stderr.write(`test-summary: ${full} is missing: that tier did not run\n`);
    process.exit(1);
  }
  return fs.readFileSync(full, 'utf8');
}

/** A vitest tier's counts and when it started (epoch ms). */
function vitest(file: string): Counts & { startTime: number } {
  const report = JSON.parse(read(file)) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    startTime: number;
  };
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    startTime: report.startTime,
  };
}

/** Schemathesis: the generated cases from its log when present, else its operations from the XML. */
function schemathesis(): Counts {
  const log = read('schemathesis.log');
  const cases = /(\d+) generated, (\d+) passed(?:, (\d+) failed)?(?:, (\d+) skipped)?/.exec(log);
  if (cases !== null) return { passed: Number(cases[2]), failed: Number(cases[3] ?? 0), skipped: Number(cases[4] ?? 0) };
  const xml = read('schemathesis.xml');
  const attr = (name: string): number =>
    [...xml.matchAll(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
  const failed = attr('failures') + attr('errors');
  const skipped = attr('skipped');
  return { passed: attr('tests') - failed - skipped, failed, skipped };
}

// The unit tier runs first: the run's time is counted from its start.
const unit = vitest('unit.json');
const tiers: [string, Counts][] = [
  ['unit', unit],
  ['integration, contract and reliability', vitest('integration.json')],
  ['schemathesis cases', schemathesis()],
];
const total = tiers.reduce((t, [, c]) => ({ passed: t.passed + c.passed, failed: t.failed + c.failed, skipped: t.skipped + c.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
for (const [name, c] of tiers) process.stdout.write(`  ${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped\n`);
const parts = [
  ...(total.failed > 0 ? [`${total.failed} failed`] : []),
  `${total.passed} passed`,
  ...(total.skipped > 0 ? [`${total.skipped} skipped`] : []),
];
const seconds = (Date.now() - unit.startTime) / 1000;
process.stdout.write(`============ ${parts.join(', ')} in ${seconds.toFixed(2)}s ============\n`);
process.exit(total.failed === 0 ? 0 : 1);
