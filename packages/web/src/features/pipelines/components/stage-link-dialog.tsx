import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type TLinkOption = { value: string; label: string };

/**
 * Connect or disconnect the focused stage by choosing the other end from a list (the keyboard's
 * way to draw or remove a connection). A searchable select: type to filter, ↓ ↑ and Enter to pick,
 * Enter again to confirm; Escape closes and gives the focus back to the stage.
 */
export function StageLinkDialog({
  mode,
  stageName,
  options,
  onConfirm,
  onClose,
}: {
  mode: 'connect' | 'disconnect' | null;
  stageName: string;
  options: TLinkOption[];
  onConfirm: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const confirm = () => {
    if (!value) return;
    setValue(null);
    onConfirm(value);
  };
  const close = () => {
    setValue(null);
    onClose();
  };
  const connect = mode === 'connect';
  return (
    <Modal
      opened={mode !== null}
      onClose={close}
      title={
        connect ? t('Connect {{name}} to…', { name: stageName }) : t('Disconnect {{name}} from…', { name: stageName })
      }
      data-testid="flow-link-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <Stack>
          {options.length === 0 ? (
            <Text data-testid="flow-link-none">
              {connect ? t('No stage can be connected from this one.') : t('This stage has no connections.')}
            </Text>
          ) : (
            <Select
              data-autofocus
              searchable
              label={connect ? t('Target stage') : t('Connection to remove')}
              data={options}
              value={value}
              onChange={setValue}
              onDropdownOpen={() => setListOpen(true)}
              onDropdownClose={() => setListOpen(false)}
              // Opening the list marks its first option at once. Mantine's default marks "the
              // active option" in a timer, and a timer that runs after a quick ↓ unmarks what ↓
              // chose, so the Enter after it picked nothing (docs/decisions.md, decision 131).
              selectFirstOptionOnDropdownOpen
              onKeyDown={(event) => {
                // The select keeps Enter to itself; with its list closed, Enter confirms the choice.
                if (event.key === 'Enter' && !listOpen && value) {
                  event.preventDefault();
                  confirm();
                }
              }}
              comboboxProps={{ withinPortal: false }}
              data-testid="flow-link-select"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={!value} data-testid="flow-link-confirm">
              {connect ? t('Connect') : t('Disconnect')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
