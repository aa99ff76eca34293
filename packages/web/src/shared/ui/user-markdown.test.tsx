import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { isOwnImage, UserMarkdown } from './user-markdown';

function show(text: string) {
  const { container } = render(
    <MantineProvider>
      <MemoryRouter>
        <UserMarkdown text={text} />
      </MemoryRouter>
    </MantineProvider>,
  );
  return container;
}

describe('UserMarkdown images (decision 192)', () => {
  beforeEach(async () => {
    await initI18n().changeLanguage('en');
  });

  it('shows an image from elsewhere as a link saying where it points, never loading it', () => {
    const container = show('See ![the plate](https://cdn.example.com/plates/sh010.png) here.');
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByTestId('markdown-external-image');
    expect(link).toHaveAttribute('href', 'https://cdn.example.com/plates/sh010.png');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveTextContent('Image “the plate” at cdn.example.com');
  });

  it('names the host alone when the image has no alt text, in Russian too', async () => {
    await initI18n().changeLanguage('ru');
    show('![](http://evil.test:8080/pixel.gif)');
    expect(screen.getByTestId('markdown-external-image')).toHaveTextContent('Изображение на evil.test:8080');
  });

  it('still shows images of our own attachments', () => {
    const container = show('![frame](/api/attachments/12/content/?token=abc)');
    const image = container.querySelector('img');
    expect(image).toHaveAttribute('src', '/api/attachments/12/content/?token=abc');
    expect(screen.queryByTestId('markdown-external-image')).toBeNull();
  });

  it('tells our own addresses from others', () => {
    const origin = 'https://stageline.example';
    expect(isOwnImage('/api/attachments/1/content/', origin)).toBe(true);
    expect(isOwnImage('https://stageline.example/api/attachments/1/content/', origin)).toBe(true);
    expect(isOwnImage('//cdn.example.com/a.png', origin)).toBe(false);
    expect(isOwnImage('https://stageline.example.evil.test/a.png', origin)).toBe(false);
    expect(isOwnImage('not a url', origin)).toBe(false);
  });
});
