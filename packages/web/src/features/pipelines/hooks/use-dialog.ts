import { useCallback, useState } from 'react';

/** One modal question at a time, asked as a promise: `await ask('orphans')` resolves with the answer. */
export function useDialog<TKind extends string, TAnswer = boolean>() {
  const [dialog, setDialog] = useState<{ kind: TKind; payload?: number; resolve: (answer: TAnswer) => void } | null>(
    null,
  );
  const ask = useCallback(
    (kind: TKind, payload?: number) => new Promise<TAnswer>((resolve) => setDialog({ kind, payload, resolve })),
    [],
  );
  const answer = useCallback((value: TAnswer) => {
    setDialog((current) => {
      current?.resolve(value);
      return null;
    });
  }, []);
  return { dialog, ask, answer };
}
