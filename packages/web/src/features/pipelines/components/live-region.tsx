import { VisuallyHidden } from '@mantine/core';
import { useCallback, useState } from 'react';

/**
 * A polite live region and the function that speaks through it. The same words twice in a row
 * (moving a stage step by step) differ by a trailing no-break space, so screen readers say them again.
 */
export function useAnnouncer() {
  const [message, setMessage] = useState('');
  const announce = useCallback((text: string) => {
    setMessage((previous) => (previous === text ? `${text}\u00a0` : text));
  }, []);
  return { message, announce };
}

export function LiveRegion({ message }: { message: string }) {
  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" role="status" data-testid="flow-announcer">
      {message}
    </VisuallyHidden>
  );
}
