import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { AddAudioPostPage } from './add-audio-post-page';
import { AddLyricsPostPage } from './add-lyrics-post-page';

describe('leaving a create-post page', () => {
  it('goes at once when nothing was added', async () => {
    renderPage(<AddLyricsPostPage />, { route: '/add-post-lyrics', path: '/add-post-lyrics' });
    await userEvent.click(screen.getByRole('link', { name: 'Close' }));
    expect(currentLocation()).toBe('/home');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before throwing away what was written', async () => {
    const user = userEvent.setup();
    renderPage(<AddLyricsPostPage />, { route: '/add-post-lyrics', path: '/add-post-lyrics' });
    await user.type(screen.getByLabelText('Song title'), 'Yesterday');

    await user.click(screen.getByRole('link', { name: 'Close' }));
    const dialog = screen.getByRole('dialog', { name: 'Discard this post?' });
    expect(dialog).toHaveTextContent('What you have added so far will be lost.');
    expect(currentLocation()).toBe('/add-post-lyrics');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Song title')).toHaveValue('Yesterday');

    // Opening in a new tab leaves this page alone.
    fireEvent.click(screen.getByRole('link', { name: 'Audio' }), { ctrlKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Audio' }));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(currentLocation()).toBe('/add-post-audio');
  });

  it('asks before stopping an upload, and stops it when the person leaves', async () => {
    const abort = vi.spyOn(XMLHttpRequest.prototype, 'abort');
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(api('/posts/audio'), async () => {
        await gate;
        return HttpResponse.json({ id: '1' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderPage(<AddAudioPostPage />, { route: '/add-post-audio', path: '/add-post-audio' });
    await user.upload(screen.getByLabelText('Audio files'), new File(['ID3'], 'a.mp3', { type: 'audio/mpeg' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await screen.findByRole('button', { name: 'Publishing...' });

    await user.click(screen.getByRole('link', { name: 'Close' }));
    expect(screen.getByRole('dialog', { name: 'Leave while uploading?' })).toHaveTextContent(
      'Your post is still uploading. If you leave now, the upload stops and the post may not be published.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(currentLocation()).toBe('/add-post-audio');

    await user.click(screen.getByRole('link', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(currentLocation()).toBe('/home');
    expect(abort).toHaveBeenCalledTimes(1);
    release();
  });
});
