import { ActionIcon, Group, Modal, Text } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttachment } from '@stageline/shared';

const zoomSteps = [0.5, 0.75, 1, 1.5, 2, 3, 4];

/** An image at full size in a modal, with zoom in and out (buttons, or the wheel with Ctrl). */
export function Lightbox({ file, onClose }: { file: TAttachment | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(2);
  const zoom = zoomSteps[step]!;
  const close = () => {
    setStep(2);
    onClose();
  };
  return (
    <Modal
      opened={file !== null}
      onClose={close}
      size="auto"
      title={
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} truncate maw={360}>
            {file?.name}
          </Text>
          <ActionIcon
            variant="subtle"
            onClick={() => setStep((s) => Math.max(0, s - 1))}
            disabled={step === 0}
            aria-label={t('Zoom out')}
            data-testid="lightbox-zoom-out"
          >
            <IconZoomOut size={18} />
          </ActionIcon>
          <Text size="sm" w={48} ta="center" data-testid="lightbox-zoom">
            {Math.round(zoom * 100)}%
          </Text>
          <ActionIcon
            variant="subtle"
            onClick={() => setStep((s) => Math.min(zoomSteps.length - 1, s + 1))}
            disabled={step === zoomSteps.length - 1}
            aria-label={t('Zoom in')}
            data-testid="lightbox-zoom-in"
          >
            <IconZoomIn size={18} />
          </ActionIcon>
          <ActionIcon variant="subtle" onClick={() => setStep(2)} aria-label={t('Actual size')}>
            <IconZoomReset size={18} />
          </ActionIcon>
        </Group>
      }
      data-testid="lightbox"
    >
      {file ? (
        <div
          style={{ overflow: 'auto', maxWidth: '90vw', maxHeight: '80vh' }}
          onWheel={(event) => {
            if (!event.ctrlKey) return;
            setStep((s) => Math.min(zoomSteps.length - 1, Math.max(0, s + (event.deltaY < 0 ? 1 : -1))));
          }}
        >
          <img src={file.content_url} alt={file.name} data-testid="lightbox-image" style={{ display: 'block', zoom }} />
        </div>
      ) : null}
    </Modal>
  );
}
