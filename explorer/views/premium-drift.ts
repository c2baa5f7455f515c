/**
 * Premium drift: GET /v1/options/flow/premium-drift, the running ask-side minus bid-side premium
 * of calls and puts and their difference through the session, with the underlying on its own axis.
 */
import type { GetPremiumDriftResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { chart, COLORS, timeTicksOf } from '../chart';
import { el, facts } from '../dom';
import { num, timeOf, usd } from '../format';
import { latest, queryOf, type View } from '../view';

export const premiumDrift: View = {
  id: 'premium-drift',
  async load(context) {
    const url = urlOf('/v1/options/flow/premium-drift', queryOf(context));
    const body = await getJson<GetPremiumDriftResponse>(url);
    return (out) => {
      const buckets = body.data;
      const at = (field: 'call_drift' | 'put_drift' | 'sentiment_drift'): string => {
        const last = latest(buckets, field);
        return last === null ? '–' : `${usd(last.value)} at ${timeOf(last.timestamp)}`;
      };
      out.append(
        facts([
          ['Buckets', String(buckets.length)],
          ['Call drift', at('call_drift')],
          ['Put drift', at('put_drift')],
          ['Sentiment drift', at('sentiment_drift')],
        ]),
        el(
          'p',
          { class: 'note' },
          'Cumulative premium bought on the ask side minus sold on the bid side; sentiment drift is calls minus puts. Mid and unknown prints add nothing.',
        ),
      );
      if (buckets.length === 0) {
        out.append(el('p', { class: 'empty' }, 'No bucket has started.'));
        return { requests: [url], series: {} };
      }
      const box = el('div', { class: 'chart' });
      out.append(box);
      const u = chart(box, {
        title: `${context.underlying.toUpperCase()} premium drift (USD)`,
        time: true,
        yLabel: 'USD',
        yFormat: (v) => usd(v),
        y2: { label: 'Underlying', format: (v) => num(v, 0) },
        zero: true,
        data: [
          buckets.map((b) => b.timestamp),
          buckets.map((b) => b.call_drift),
          buckets.map((b) => b.put_drift),
          buckets.map((b) => b.sentiment_drift),
          buckets.map((b) => b.underlying_price),
        ],
        series: [
          { label: 'Calls', stroke: COLORS.call, width: 2, value: (_u, v) => usd(v) },
          { label: 'Puts', stroke: COLORS.put, width: 2, value: (_u, v) => usd(v) },
          { label: 'Sentiment (calls − puts)', stroke: COLORS.accent, width: 2.5, value: (_u, v) => usd(v) },
          { label: 'Underlying', stroke: COLORS.muted, width: 1, dash: [4, 4], scale: 'y2', value: (_u, v) => num(v) },
        ],
      });
      const [timestamp, call, put, sentiment, underlying] = u.data;
      return {
        requests: [url],
        series: { timestamp, call_drift: call, put_drift: put, sentiment_drift: sentiment, underlying_price: underlying },
        // The time axis's labels as last drawn (a getter: the chart paints on the next frame).
        get ticks() {
          return timeTicksOf(u);
        },
      };
    };
  },
};
