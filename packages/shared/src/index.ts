import './validation';

export * from './limits';
export * from './errors';
export * from './languages';
export * from './paths';
export * from './validation';
export * from './schemas/system';
export * from './schemas/auth';
export * from './domain/graph';
export * from './domain/tasks';
export * from './domain/permissions';
export * from './schemas/workspaces';
export * from './schemas/pipelines';
export * from './schemas/units';
export * from './schemas/comments';
export * from './schemas/notifications';
