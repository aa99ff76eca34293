import { Input, PinInput } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@stageline/shared';

/** The 6-digit one-time code (docs/rules.md §Accounts), one box per digit, filled by paste or autofill too. */
export function CodeInput({
  value,
  onChange,
  onComplete,
  error,
  disabled,
  autoFocus = true,
  testId = 'otp-input',
}: {
  value: string;
  onChange: (value: string) => void;
  onComplete?: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Input.Wrapper
      label={t('Enter 6-digits code')}
      labelProps={{ id: `${id}-label` }}
      error={error}
      errorProps={{ role: 'alert', 'data-testid': `${testId}-error` }}
    >
      <PinInput
        length={Limits.code.length}
        type="number"
        inputMode="numeric"
        oneTimeCode
        autoFocus={autoFocus}
        value={value}
        onChange={onChange}
        onComplete={onComplete}
        error={Boolean(error)}
        disabled={disabled}
        ariaLabel={t('Enter 6-digits code')}
        data-testid={testId}
        getInputProps={(index) => ({ 'data-testid': `${testId}-${index}` })}
        mt={4}
      />
    </Input.Wrapper>
  );
}
