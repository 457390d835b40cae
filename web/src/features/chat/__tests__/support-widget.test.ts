import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSupportWidget, WIDGET_GIVE_UP_MS, WIDGET_POLL_MS } from '../lib/support-widget';

const user = { name: 'Dana Demo', email: 'dana@example.com', company: 'Acme Logistics' };
const scripts = () => document.querySelectorAll('script[data-support-widget]');

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  delete window.SupportWidget;
  for (const script of scripts()) script.remove();
});

describe('the support widget loader', () => {
  it('adds one async script, polls every 100 ms and boots the widget with the applicant once it is there', () => {
    const cancel = loadSupportWidget('https://widget.example.net/w.js', user);
    loadSupportWidget('https://widget.example.net/w.js', user)();
    expect(scripts()).toHaveLength(1);
    const script = scripts()[0] as HTMLScriptElement;
    expect(script.async).toBe(true);
    expect(script.src).toBe('https://widget.example.net/w.js');

    const boot = vi.fn();
    vi.advanceTimersByTime(WIDGET_POLL_MS * 3);
    expect(boot).not.toHaveBeenCalled();
    window.SupportWidget = { boot };
    vi.advanceTimersByTime(WIDGET_POLL_MS - 1);
    expect(boot).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(boot).toHaveBeenCalledTimes(1);
    expect(boot).toHaveBeenCalledWith(user);
    vi.advanceTimersByTime(WIDGET_POLL_MS * 10);
    expect(boot).toHaveBeenCalledTimes(1);
    cancel();
  });

  it('gives up quietly after 30 s, and a widget arriving later is not booted', () => {
    loadSupportWidget('https://widget.example.net/w.js', user);
    vi.advanceTimersByTime(WIDGET_GIVE_UP_MS);
    const boot = vi.fn();
    window.SupportWidget = { boot };
    vi.advanceTimersByTime(WIDGET_POLL_MS * 5);
    expect(boot).not.toHaveBeenCalled();
  });

  it('does not call a boot that is not a function', () => {
    loadSupportWidget('https://widget.example.net/w.js', user);
    window.SupportWidget = {};
    expect(() => vi.advanceTimersByTime(WIDGET_POLL_MS)).not.toThrow();
  });

  it('adds nothing without a URL', () => {
    loadSupportWidget('', user);
    vi.advanceTimersByTime(WIDGET_POLL_MS * 5);
    expect(scripts()).toHaveLength(0);
  });

  it('stops polling when cancelled', () => {
    const cancel = loadSupportWidget('https://widget.example.net/w.js', user);
    cancel();
    const boot = vi.fn();
    window.SupportWidget = { boot };
    vi.advanceTimersByTime(WIDGET_POLL_MS * 5);
    expect(boot).not.toHaveBeenCalled();
  });
});
