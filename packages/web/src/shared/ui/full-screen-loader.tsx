import { Center, Loader, Overlay, Stack, Text } from '@mantine/core';

/**
 * The full-screen loading overlay with its label ('Authorization...', 'Loading...'). It dims and does
 * not blur: at boot and while users/me/ loads there is nothing behind it to blur, and a backdrop blur
 * of the whole window under a spinning loader is redrawn on every frame where the browser composites
 * in software (docs/decisions.md, 123).
 */
export function FullScreenLoader({ label }: { label: string }) {
  return (
    <Overlay fixed zIndex={1000} backgroundOpacity={0.35} data-testid="loading-overlay">
      <Center h="100%">
        <Stack align="center" gap="sm" role="status" aria-live="polite">
          <Loader size="lg" />
          <Text fw={500}>{label}</Text>
        </Stack>
      </Center>
    </Overlay>
  );
}
