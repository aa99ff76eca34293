import { readFileSync } from 'node:fs';
import path from 'node:path';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serverRoot } from '../../package-paths';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const family = (families: MetricFamily[], name: string) => {
  const found = families.find((f) => f.name === name);
  expect(found, name).toBeDefined();
  return found!;
};

describe('GET /api/metrics', () => {
  test('from this machine: Prometheus text a parser reads, with requests by route, the queue, the database, webhooks and the process', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health/' });
    await t.app.inject({ method: 'GET', url: '/api/tasks/123/' }); // 401: observed under its route pattern
    const response = await t.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(response.body);

    expect(family(families, 'stageline_http_request_duration_seconds').type).toBe('HISTOGRAM');
    // The parser folds a histogram's labelled series into one, so the series are read from the lines.
    const counts = [...response.body.matchAll(/^stageline_http_request_duration_seconds_count\{(.*)\} (\d+)$/gm)].map(
      ([, labels, count]) => ({ labels: labels!, count: Number(count) }),
    );
    const countOf = (labels: string) => counts.find((series) => series.labels === labels)?.count ?? 0;
    expect(countOf('method="GET",route="/api/health/",status="200"')).toBeGreaterThanOrEqual(1);
    expect(countOf('method="GET",route="/api/tasks/:id/",status="401"')).toBe(1);

    const admission = family(families, 'stageline_admission_requests').metrics;
    expect(admission.map((m) => m.labels?.state).sort()).toEqual(['running', 'waiting']);
    expect(Number(family(families, 'stageline_admission_wait_seconds').metrics[0]!.count)).toBeGreaterThanOrEqual(1);
    expect(
      family(families, 'stageline_database_connections')
        .metrics.map((m) => m.labels?.state)
        .sort(),
    ).toEqual(['idle', 'open', 'waited_for']);
    expect(family(families, 'stageline_live_connections').metrics[0]!.value).toBe('0');
    const deliveries = family(families, 'stageline_webhook_deliveries').metrics;
    expect(deliveries.map((m) => m.labels?.state).sort()).toEqual(['failed', 'pending', 'succeeded']);
    family(families, 'stageline_webhook_oldest_pending_seconds');
    family(families, 'stageline_job_lag_seconds');
    expect(Number(family(families, 'process_resident_memory_bytes').metrics[0]!.value)).toBeGreaterThan(10_000_000);
    family(families, 'nodejs_eventloop_lag_p99_seconds');
  });

  test('through a proxy and without METRICS_TOKEN it is not there (404)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('stageline_');
  });

  test('with METRICS_TOKEN, another machine must send it as a bearer token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const own = await buildTestApp({ database: t.database, config: { metricsToken: token } });
    try {
      const ask = (authorization?: string) =>
        own.app.inject({
          method: 'GET',
          url: '/api/metrics',
          remoteAddress: '198.51.100.7',
          headers: authorization ? { authorization } : {},
        });
      expect((await ask()).statusCode).toBe(401);
      expect((await ask('Bearer wrong-token-0123456789abcdef')).statusCode).toBe(401);
      const answered = await ask(`Bearer ${token}`);
      expect(answered.statusCode).toBe(200);
      expect(parsePrometheusTextFormat(answered.body).length).toBeGreaterThan(10);
    } finally {
      await own.close();
    }
  });

  test('every metric the Grafana dashboard of docs/ draws is in the answer', async () => {
    const dashboard = readFileSync(path.join(serverRoot, '../../docs/grafana-dashboard.json'), 'utf8');
    const drawn = new Set(
      [...dashboard.matchAll(/\b((?:stageline|nodejs|process)_[a-z0-9_]+?)(?:_bucket|_count|_sum)?\b/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(drawn.size).toBeGreaterThan(8);
    const answer = await t.app.inject({ method: 'GET', url: '/api/metrics' });
    const names = new Set(parsePrometheusTextFormat(answer.body).map((f) => f.name));
    expect([...drawn].filter((name) => !names.has(name))).toEqual([]);
  });
});
