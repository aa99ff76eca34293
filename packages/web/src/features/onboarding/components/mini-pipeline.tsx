import { Badge, Group, UnstyledButton } from '@mantine/core';
import { IconArrowRight, IconSettings } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './onboarding.module.css';

export type TMiniStage = { key: string | number; name: string; kind: 'root' | 'end' | 'stage' };

/**
 * A pipeline drawn as a row of stages joined by arrows: the tutorial's illustration, and the
 * quickstart's own pipeline, whose stages open their settings when `onOpen` is given.
 */
export function MiniPipeline({ stages, onOpen }: { stages: TMiniStage[]; onOpen?: (key: TMiniStage['key']) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap" className={classes.pipeline} data-testid="mini-pipeline">
      {stages.map((stage, i) => (
        <Fragment key={stage.key}>
          {i > 0 ? <IconArrowRight size={16} aria-hidden="true" className={classes.arrow} /> : null}
          {stage.kind !== 'stage' ? (
            <Badge variant="outline" color="gray" size="lg" radius="xl" tt="none" data-testid={`mini-${stage.kind}`}>
              {stage.name}
            </Badge>
          ) : onOpen ? (
            <UnstyledButton
              className={classes.stage}
              onClick={() => onOpen(stage.key)}
              aria-label={t('Settings of {{name}}', { name: stage.name })}
              data-testid="mini-stage"
            >
              <Group gap={6} wrap="nowrap">
                {stage.name}
                <IconSettings size={14} aria-hidden="true" />
              </Group>
            </UnstyledButton>
          ) : (
            <span className={classes.stage} data-testid="mini-stage">
              {stage.name}
            </span>
          )}
        </Fragment>
      ))}
    </Group>
  );
}
