import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZLogin, ZRegister } from '@stageline/shared';
import { fieldErrors } from './form-errors';
import { zodResolver } from './zod-resolver';

/** A translator that shows what it was asked: the key and its parameters. */
const t = (key: string, params?: Record<string, unknown>) =>
  params && Object.keys(params).length ? `${key} ${JSON.stringify(params)}` : key;

describe('zodResolver', () => {
  it('answers no errors for valid values', () => {
    expect(zodResolver(ZLogin, t)({ username: 'ada', password: 'secret' })).toEqual({});
  });

  it('maps each field to its first issue, translated with its parameters', () => {
    const errors = zodResolver(ZRegister, t)({ username: 'a', email: 'not-an-email', password: 'short' });
    expect(errors).toEqual({
      username: 'Ensure this field has at least {{min}} characters. {"min":3}',
      email: 'Invalid email',
      password: 'Password is too short {"min":8}',
    });
  });

  it('says Required for a missing value and "Field can not be empty" for an empty one', () => {
    expect(zodResolver(ZLogin, t)({ password: '' })).toEqual({
      username: 'Required',
      password: 'Field can not be empty {"min":1}',
    });
  });

  it('says an empty field is empty, whatever its minimum length or pattern', () => {
    expect(zodResolver(ZRegister, t)({ username: ' ', email: '', password: '' })).toEqual({
      username: 'Field can not be empty {"min":3}',
      email: 'Field can not be empty {"min":1}',
      password: 'Field can not be empty {"min":1}',
    });
  });

  it('joins nested paths with dots, as Mantine names list fields', () => {
    const schema = z.object({ items: z.array(z.object({ name: z.string().min(2) })) });
    expect(zodResolver(schema, t)({ items: [{ name: 'ok' }, { name: 'x' }] })).toEqual({
      'items.1.name': 'Ensure this field has at least {{min}} characters. {"min":2}',
    });
  });

  it('puts object-level refinements on the path they name', () => {
    const schema = z
      .object({ password: z.string(), password_confirm: z.string() })
      .refine((v) => v.password === v.password_confirm, {
        message: "Passwords doesn't matches",
        path: ['password_confirm'],
      });
    expect(zodResolver(schema, t)({ password: 'a', password_confirm: 'b' })).toEqual({
      password_confirm: "Passwords doesn't matches",
    });
  });
});

describe('fieldErrors', () => {
  it('joins the server messages of each field', () => {
    expect(fieldErrors({ email: ['Taken.', 'Really.'], username: ['Bad.'] })).toEqual({
      email: 'Taken. Really.',
      username: 'Bad.',
    });
    expect(fieldErrors(undefined)).toEqual({});
  });
});
