/**
 * The icons of a comment's menu, drawn as the post menu's are (posts keep theirs in their own
 * module for the first load; docs/frontend.md, "First load"). Decorative: the menu item carries
 * the accessible name.
 */
import { Icon, type IconProps } from '../../components/icon';

export const BinIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2m3 0v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6" />
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
