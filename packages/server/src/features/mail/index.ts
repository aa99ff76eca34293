/** What other features use of mail: the mailer, the templates, the dev outbox routes. */
export { createMailer, type Mailer } from './mailer';
export { renderBlocks, renderMail, type Block, type CodeMailPurpose, type MailTemplate } from './templates';
export { devOutboxRoutes } from './routes';
