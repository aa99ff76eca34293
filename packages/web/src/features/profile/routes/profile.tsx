import { Card, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../../shared/ui/page-card';
import { useCurrentUser } from '../../auth';
import { ApiTokensSection } from '../components/api-tokens-section';
import { AvatarBlock } from '../components/avatar-section';
import { EmailSection } from '../components/email-section';
import { LinkedAccountsSection } from '../components/linked-accounts-section';
import { NotificationsSection } from '../components/notifications-section';
import { PasswordSection } from '../components/password-section';
import { LanguageSection, PersonalSection } from '../components/personal-section';
import { SessionsSection } from '../components/sessions-section';
import { TimeZoneSection } from '../components/time-zone-section';
import { TwoFactorSection } from '../components/two-factor-section';
import { CalendarFeedSection } from '../../schedule';

/** `/app/profile` (docs/rules.md §Web): who you are, how you sign in, what we tell you, where you are signed in. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <PageCard title={t('Profile')}>
      <Stack gap="md" data-testid="profile">
        <Card withBorder radius="md" padding="lg">
          <AvatarBlock user={user} />
        </Card>
        <PersonalSection key={`${user.id}:${user.username}`} user={user} />
        <LanguageSection user={user} />
        <TimeZoneSection user={user} />
        <EmailSection key={user.email} user={user} />
        <PasswordSection user={user} />
        <TwoFactorSection user={user} />
        <LinkedAccountsSection user={user} />
        <NotificationsSection user={user} />
        <CalendarFeedSection />
        <SessionsSection />
        <ApiTokensSection />
      </Stack>
    </PageCard>
  );
}
