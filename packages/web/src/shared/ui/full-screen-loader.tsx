import { Center, Loader, Overlay, Stack, Text } from '@mantine/core';

/** The full-screen loading overlay with its label ('Authorization...', 'Loading...'). */
export function FullScreenLoader({ label }: { label: string }) {
  return (
    <Overlay fixed blur={2} zIndex={1000} backgroundOpacity={0.35} data-testid="loading-overlay">
      <Center h="100%">
        <Stack align="center" gap="sm" role="status" aria-live="polite">
          <Loader size="lg" />
          <Text fw={500}>{label}</Text>
        </Stack>
      </Center>
    </Overlay>
  );
}
