import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../i18n';
import { LoadError } from './load-error';

const query = (isFetching = false) => ({ refetch: vi.fn(), isFetching });

function show(element: React.ReactNode) {
  render(<MantineProvider>{element}</MantineProvider>);
}

describe('LoadError', () => {
  beforeEach(async () => {
    await initI18n().changeLanguage('ru');
  });

  it('says what failed in the reader’s language and asks every failed query again', () => {
    const task = query();
    const unit = query();
    show(<LoadError retry={[task, unit]} testId="focus-error" />);
    expect(screen.getByTestId('focus-error')).toHaveTextContent('Ошибка при загрузке данных');
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(task.refetch).toHaveBeenCalledTimes(1);
    expect(unit.refetch).toHaveBeenCalledTimes(1);
  });

  it('spins while a query is asked again', () => {
    show(<LoadError retry={query(true)} />);
    expect(screen.getByTestId('load-error-retry')).toHaveAttribute('data-loading', 'true');
  });
});
