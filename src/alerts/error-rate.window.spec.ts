import { ErrorRateWindow } from './error-rate.window';

const WINDOW_MS = 60_000;

function startedAt(at: number, maxReadings = 1024): ErrorRateWindow {
  return new ErrorRateWindow(WINDOW_MS, { at, requests: 0, failed: 0 }, maxReadings);
}

describe('ErrorRateWindow', () => {
  it('counts from the start while the gateway is younger than the window', () => {
    const window = startedAt(0);
    expect(window.record(15_000, { requests: 10, failed: 2 })).toEqual({ requests: 10, failed: 2 });
    expect(window.record(30_000, { requests: 25, failed: 5 })).toEqual({ requests: 25, failed: 5 });
  });

  it('subtracts the newest reading at least a window old', () => {
    const window = startedAt(0);
    window.record(15_000, { requests: 10, failed: 10 });
    window.record(30_000, { requests: 20, failed: 10 });
    window.record(60_000, { requests: 30, failed: 10 });
    // Window (15 s, 75 s]: the reading at 15 s is the baseline.
    expect(window.record(75_000, { requests: 40, failed: 11 })).toEqual({
      requests: 30,
      failed: 1,
    });
    // Window (30 s, 90 s]: the failures of the first 15 s have left it.
    expect(window.record(90_000, { requests: 50, failed: 11 })).toEqual({
      requests: 30,
      failed: 1,
    });
  });

  it('reports nothing once a window passes without requests', () => {
    const window = startedAt(0);
    window.record(10_000, { requests: 100, failed: 100 });
    expect(window.record(70_000, { requests: 100, failed: 100 })).toEqual({
      requests: 0,
      failed: 0,
    });
  });

  it('keeps readings spaced by window / maxReadings, so a short interval holds few of them', () => {
    const window = startedAt(0, 4);
    // One evaluation per second, a 60 s window, 4 readings: one kept every 15 s at most.
    for (let now = 1_000; now <= 120_000; now += 1_000) {
      window.record(now, { requests: now / 1_000, failed: 0 });
    }
    const readings = (window as unknown as { readings: unknown[] }).readings;
    expect(readings.length).toBeLessThanOrEqual(6);
    // Still about a window: at most one spacing (15 s) more.
    const { requests } = window.record(121_000, { requests: 121, failed: 0 });
    expect(requests).toBeGreaterThanOrEqual(60);
    expect(requests).toBeLessThanOrEqual(75);
  });
});
