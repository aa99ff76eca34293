import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until `restart()` was called plus `seconds`; ticks every second and stops at zero.
 * Used for the resend-code button (docs/rules.md §Limits otp_timeout).
 */
export function useCountdown(seconds: number, startNow = true) {
  const [until, setUntil] = useState(() => (startNow ? Date.now() + seconds * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);

  const restart = useCallback(() => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  }, [seconds]);

  return { left: Math.max(0, Math.ceil((until - now) / 1000)), restart };
}
