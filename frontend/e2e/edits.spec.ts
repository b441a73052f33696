/**
 * Edits against the real server (issue 19): an author edits a lyrics post and an audio post
 * from the post menu, and a comment in place; every screen shows the new words at once and
 * after a reload, marked 'edited'; someone newly mentioned by an edit is told; nobody else is
 * offered Edit.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { watchCsp } from './support/csp';
import { watchDialogs } from './support/dialogs';

test('an author edits a post and a comment; readers see the new words, marked edited', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const project = testInfo.project.name;
  const tag = `${project}-${Math.random().toString(36).slice(2, 7)}`;
  const ana = await signedUpAccount(request, server, uniqueEmail('eana', project), 'Ana Edits');
  const ben = await signedUpAccount(request, server, uniqueEmail('eben', project), 'Ben Reader');
  const songId = await lyricsPost(request, server.url, ana.token, `Draft Song ${tag}`);
  const upload = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: { audio_files: { name: `take-${tag}.wav`, mimeType: 'audio/wav', buffer: toneWav(2, 330) } },
  });
  expect(upload.status()).toBe(201);

  // The lyrics post, from its page's menu: the title and a new chorus.
  await signInThroughAddress(page, server.appUrl, ana.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/post/${songId}`);
  const post = page.getByRole('article', { name: 'Post by Ana Edits' });
  await post.getByRole('button', { name: 'Post options' }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Edit post', 'Delete post', 'Share', 'Cancel']);
  await page.getByRole('menuitem', { name: 'Edit post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  const title = dialog.getByRole('textbox', { name: 'Song title' });
  await expect(title).toHaveValue(`Draft Song ${tag}`);
  await title.fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Song title cannot be blank')).toBeVisible();
  await expect(title).toBeFocused();
  await title.fill(`Final Song ${tag}`);
  await dialog.getByRole('button', { name: 'Add a part' }).click();
  const parts = dialog.getByRole('group');
  await expect(parts).toHaveCount(2);
  await parts.nth(1).getByRole('combobox').selectOption('chorus');
  await parts.nth(1).getByRole('textbox', { name: 'Lyrics' }).fill(`Sing it again ${tag}`);
  await dialog.getByRole('textbox', { name: /Caption/ }).fill('Finished at last');
  await shot('edit-post-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText('Post updated.');
  await expect(page.getByRole('heading', { name: `Final Song ${tag}` })).toBeVisible();
  await expect(post).toContainText(`Sing it again ${tag}`);
  await expect(post).toContainText('Finished at last');
  await expect(post.getByText('edited', { exact: true })).toBeVisible();
  await shot('edited-post');

  // The audio post's track title, from its card on the profile.
  await page.goto(`${server.appUrl}/profile`);
  const audioCard = page.locator('article[data-post-type="audio"]');
  await expect(audioCard).toHaveCount(1);
  await audioCard.getByRole('button', { name: 'Post options' }).click();
  await page.getByRole('menuitem', { name: 'Edit post' }).click();
  const trackDialog = page.getByRole('dialog', { name: 'Edit post' });
  await expect(trackDialog.getByText('The files stay as they are; to change them, make a new post.')).toBeVisible();
  await trackDialog.getByRole('textbox', { name: 'Title' }).fill(`Night Take ${tag}`);
  await trackDialog.getByRole('textbox', { name: 'Artist' }).fill('Ana & Friends');
  await trackDialog.getByRole('button', { name: 'Save' }).click();
  await expect(trackDialog).toBeHidden();
  await expect(page.getByText(`Night Take ${tag}`).first()).toBeVisible();

  // A comment, edited in place: a mention added tells Ben.
  await page.goto(`${server.appUrl}/post/${songId}`);
  const composer = page.getByRole('textbox', { name: 'Write a comment' });
  await composer.fill(`First thought ${tag}`);
  await composer.press('Enter');
  const mine = page.getByRole('article', { name: 'Comment by Ana Edits' });
  await expect(mine).toContainText(`First thought ${tag}`);
  await mine.getByRole('button', { name: 'Comment options' }).click();
  await expect(mine.getByRole('menuitem')).toHaveText(['Edit', 'Delete', 'Cancel']);
  await mine.getByRole('menuitem', { name: 'Edit' }).click();
  const box = mine.getByRole('textbox', { name: 'Edit your comment' });
  await expect(box).toBeFocused();
  // The mention picker works while editing too.
  await box.fill(`Second thought ${tag}, what do you think @${ben.login.slice(0, 5)}`);
  await mine.getByRole('option', { name: new RegExp(`@${ben.login}$`) }).click();
  await expect(box).toHaveValue(`Second thought ${tag}, what do you think @${ben.login} `);
  await shot('edit-comment');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(box).toBeHidden();
  await expect(mine).toContainText(`Second thought ${tag}`);
  await expect(mine.getByRole('link', { name: `@${ben.login}` })).toBeVisible();
  await expect(mine.getByText('edited', { exact: true })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Comment options' })).toBeFocused();
  await shot('edited-comment');

  // Ben: the new words after a fresh load, 'edited', the mention told, no Edit for him.
  await signInThroughAddress(page, server.appUrl, ben.token);
  await page.goto(`${server.appUrl}/post/${songId}`);
  await expect(page.getByRole('heading', { name: `Final Song ${tag}` })).toBeVisible();
  const anas = page.getByRole('article', { name: 'Comment by Ana Edits' });
  await expect(anas).toContainText(`Second thought ${tag}`);
  await expect(anas.getByText('edited', { exact: true })).toBeVisible();
  await anas.getByRole('button', { name: 'Comment options' }).click();
  await expect(anas.getByRole('menuitem')).toHaveText(['Report', 'Cancel']);
  await page.keyboard.press('Escape');
  await page.getByRole('article', { name: 'Post by Ana Edits' }).getByRole('button', { name: 'Post options' }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Report', 'Share', 'Cancel']);
  await page.keyboard.press('Escape');
  await page.goto(`${server.appUrl}/notifications`);
  await expect(page.getByText('mentioned you in a comment').first()).toBeVisible();

  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});
