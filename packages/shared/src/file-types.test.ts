import { describe, expect, it } from 'vitest';
import { fileExtension, fileTypeGroup, normalizeFileTypeGroups } from './file-types';

describe('fileTypeGroup (decision 198)', () => {
  it('groups by extension, case-insensitively', () => {
    expect(fileTypeGroup({ name: 'SH010 v3.MOV' })).toEqual({ group: 'media', type: '.mov' });
    expect(fileTypeGroup({ name: 'script.pdf' })).toEqual({ group: 'documents', type: '.pdf' });
    expect(fileTypeGroup({ name: 'plates.tar.gz' })).toEqual({ group: 'archives', type: '.gz' });
    expect(fileTypeGroup({ name: 'setup.exe' })).toEqual({ group: 'other', type: '.exe' });
    expect(fileTypeGroup({ name: 'page.html', contentType: 'text/plain' })).toEqual({ group: 'other', type: '.html' });
  });

  it('a program or a page is `other` by its bytes, whatever its name', () => {
    expect(fileTypeGroup({ name: 'cat.png', contentType: 'application/x-msdownload' })).toEqual({
      group: 'other',
      type: 'application/x-msdownload',
    });
    expect(fileTypeGroup({ name: 'notes.txt', contentType: 'text/html' }).group).toBe('other');
  });

  it('without an extension, by the bytes once read; undecided before', () => {
    expect(fileTypeGroup({ name: 'README' })).toEqual({ group: null, type: '' });
    expect(fileTypeGroup({ name: 'README', contentType: 'text/plain' }).group).toBe('documents');
    expect(fileTypeGroup({ name: 'frame', contentType: 'image/png' }).group).toBe('media');
    expect(fileTypeGroup({ name: 'blob', contentType: 'application/octet-stream' }).group).toBe('other');
  });

  it('reads extensions and stored groups safely', () => {
    expect(fileExtension('.bashrc')).toBeNull();
    expect(fileExtension('a.')).toBeNull();
    expect(fileExtension('dir.v2/file')).toBeNull();
    expect(normalizeFileTypeGroups(['other', 'media', 'bogus', 'media'])).toEqual(['media', 'other']);
  });
});
