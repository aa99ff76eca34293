import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Budgets,
  chunkSources,
  firstScreenLoads,
  ownChunkBytes,
  readManifest,
  routeModules,
  Screens,
  staticClosure,
  webDist,
} from './bundles';

/**
 * The size budget of issue 14, over the build's manifest (CI builds before `npm test`; without a
 * build this fails and says how to make one). Counts what a browser fetches: an entry and the route
 * modules a URL draws, with their static imports; dynamic imports load later, when asked for.
 */
const manifest = readManifest();
const loads = firstScreenLoads(manifest);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('the JS budget of the first screens (brotli, as transferred)', () => {
  it(`/login: at most ${kb(Budgets.login.brotliBytes)} in ${Budgets.login.requests} requests`, () => {
    expect(loads.login.brotliBytes, loads.login.files.join('\n')).toBeLessThanOrEqual(Budgets.login.brotliBytes);
    expect(loads.login.requests).toBeLessThanOrEqual(Budgets.login.requests);
  });

  it(`the /app shell: at most ${kb(Budgets.appShell.brotliBytes)}`, () => {
    expect(loads.appShell.brotliBytes).toBeLessThanOrEqual(Budgets.appShell.brotliBytes);
  });

  it(`each screen's own chunk: at most ${kb(Budgets.screenOwnChunk.brotliBytes)}`, () => {
    const screens = routeModules(manifest);
    expect(screens).toContain(Screens.login);
    expect(screens).toContain(Screens.units);
    const over = screens
      .map((key) => ({ key, bytes: ownChunkBytes(manifest, key) }))
      .filter(({ bytes }) => bytes > Budgets.screenOwnChunk.brotliBytes);
    expect(over).toEqual([]);
  });

  it('/login loads neither the app shell, the diagram editor, Markdown nor the password estimator', () => {
    const heavy = [Screens.appShell, Screens.pipelineFlow, 'src/features/auth/lib/zxcvbn-estimator.ts'].map(
      (key) => manifest[key]!.file,
    );
    const loaded = loads.login.files.filter((file) => heavy.includes(file) || /^assets\/(flow|markdown)-/.test(file));
    expect(loaded).toEqual([]);
  });

  it('/login loads no date picker: of @mantine/dates only the provider the app wraps itself in', () => {
    const dates = loads.login.files
      .flatMap((file) => chunkSources(file))
      .filter((source) => /@mantine[\\/]dates[\\/]/.test(source) && !/DatesProvider/.test(source));
    expect(dates).toEqual([]);
  });

  it('the diagram editor and the pipeline view load the stage settings form and the editor no form library (entry 133)', () => {
    const firstLoad = (screen: string) =>
      staticClosure(manifest, [Screens.entry, Screens.appShell, screen]).flatMap((file) => chunkSources(file));
    const settingsForm = (source: string) => /stage-settings-form|stage-review-rules/.test(source);
    expect(firstLoad(Screens.pipeline).filter(settingsForm)).toEqual([]);
    // The editor draws no date otherwise (the pipeline view's task panel has its own due-date picker).
    const dates = (source: string) => /@mantine[\\/]dates[\\/]/.test(source) && !/DatesProvider/.test(source);
    // Nor Mantine's form library: the record loader fetches its form helpers only for a failed save.
    const forms = (source: string) => /@mantine[\\/]form[\\/]/.test(source);
    expect(
      firstLoad(Screens.pipelineFlow).filter((source) => settingsForm(source) || dates(source) || forms(source)),
    ).toEqual([]);
  });

  it('/login loads neither zod, TanStack Query nor Floating UI before its first render (entry 118)', () => {
    const late = loads.login.files
      .flatMap((file) => chunkSources(file))
      .filter((source) => /node_modules[\\/](zod|@tanstack[\\/][^\\/]+|@floating-ui[\\/][^\\/]+)[\\/]/.test(source));
    expect(late).toEqual([]);
  });

  it("/login loads not the shell's command palette, and the shell not the sign-in forms (entry 106)", () => {
    const sources = (files: string[]) => files.flatMap((file) => chunkSources(file));
    expect(sources(loads.login.files).filter((source) => /@mantine[\\/]spotlight[\\/]/.test(source))).toEqual([]);
    expect(sources(loads.appShell.files).filter((source) => /@mantine[\\/]form[\\/]/.test(source))).toEqual([]);
  });

  it("the only chunks over Vite's default 500 kB are elk and the password estimator, loaded when used (entry 129)", () => {
    const large = Object.entries(manifest)
      .filter(([, chunk]) => chunk.file.endsWith('.js') && statSync(join(webDist, chunk.file)).size > 500_000)
      .map(([key, chunk]) => ({ key, file: chunk.file, lazy: chunk.isDynamicEntry === true }));
    expect(large.map(({ key }) => key).sort()).toEqual([
      '../../node_modules/elkjs/lib/elk.bundled.js',
      'src/features/auth/lib/zxcvbn-estimator.ts',
    ]);
    expect(large.every(({ lazy }) => lazy)).toBe(true);
    const firstLoads = new Set(routeModules(manifest).flatMap((key) => staticClosure(manifest, [Screens.entry, key])));
    expect(large.filter(({ file }) => firstLoads.has(file))).toEqual([]);
  });
});
