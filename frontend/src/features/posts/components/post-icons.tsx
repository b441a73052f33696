/**
 * The icons of post cards. They live apart from components/icons.tsx because cards are on the
 * first screen (/home): a module goes whole into one chunk, and the first load should not carry
 * every other icon of the app (docs/frontend.md, "First load"). Decorative: the control that
 * shows one carries the accessible name.
 */
import { Icon, type IconProps } from '../../../components/icon';

export const HeartIcon = ({ filled = false, ...p }: IconProps & { filled?: boolean }) => (
  <Icon {...p} fill={filled ? 'currentColor' : 'none'}>
    <path d="M19.5 12.6 12 20l-7.5-7.4A4.9 4.9 0 0 1 12 6.3a4.9 4.9 0 0 1 7.5 6.3Z" />
  </Icon>
);

export const CommentIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M21 11.5a8.4 8.4 0 0 1-12.1 7.6L3 21l1.9-5.9A8.4 8.4 0 1 1 21 11.5Z" />
  </Icon>
);

export const ShareIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 12v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7M16 6l-4-4-4 4M12 2v13" />
  </Icon>
);

export const BinIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2m3 0v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6" />
  </Icon>
);

export const PlayIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M7 4.5v15l12.5-7.5Z" fill="currentColor" />
  </Icon>
);

export const DownloadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3v12m-5-5 5 5 5-5M4 21h16" />
  </Icon>
);

export const SheetIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 5h18M3 9h18M3 13h18M3 17h18" strokeWidth="1.2" />
    <path d="M14 7v10" />
    <ellipse cx="11.5" cy="17" rx="2.5" ry="1.8" fill="currentColor" />
  </Icon>
);

export const QuoteIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 6h16M4 10h16M4 14h10M4 18h7" />
  </Icon>
);

export const ArrowIcon = ({ direction, ...p }: IconProps & { direction: 'left' | 'right' }) => (
  <Icon {...p}>
    <path d={direction === 'left' ? 'm15 18-6-6 6-6' : 'm9 18 6-6-6-6'} />
  </Icon>
);

export const CrossIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Icon>
);

export const FlagIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 21V4m0 0h11l-1.5 4L16 12H5" />
  </Icon>
);

export const PencilIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
  </Icon>
);
