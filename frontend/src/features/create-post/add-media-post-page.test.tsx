import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { AddMediaPostPage } from './add-media-post-page';
import { MB } from './validation';

function media(name: string, type: string, size?: number): File {
  const file = new File(['px'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

// jsdom has no object URLs: count what is made and given back.
let made: string[] = [];
let revoked: string[] = [];
const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };

beforeEach(() => {
  made = [];
  revoked = [];
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${made.length}-${(blob as File).name}`;
    made.push(url);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
  };
});

afterEach(() => {
  URL.createObjectURL = original.create;
  URL.revokeObjectURL = original.revoke;
});

function renderMediaPage() {
  const utils = renderPage(<AddMediaPostPage />, { route: '/add-post-media', path: '/add-post-media' });
  const user = userEvent.setup({ applyAccept: false });
  const pick = (...files: File[]) => user.upload(screen.getByLabelText('Photos and videos'), files);
  return { ...utils, user, pick };
}

const tiles = () => within(screen.getByRole('region', { name: 'Selected files' })).getAllByRole('listitem');

describe('AddMediaPostPage', () => {
  it('previews pictures and videos, each with a remove button', async () => {
    const { pick, user } = renderMediaPage();
    await pick(media('beach.jpg', 'image/jpeg', 2 * MB), media('waves.mov', 'video/quicktime', 30 * MB));
    const image = screen.getByRole('img', { name: 'beach.jpg' });
    expect(image).toHaveAttribute('src', made[0]);
    const video = screen.getByLabelText('waves.mov');
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', `${made[1]}#t=0.1`);
    expect(screen.getByText('Video')).toBeInTheDocument();
    expect(screen.getByText('2/5 · 32 MB of 200 MB')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove beach.jpg' }));
    expect(screen.queryByRole('img', { name: 'beach.jpg' })).toBeNull();
    expect(revoked).toEqual([made[0]]);
    expect(screen.getByRole('button', { name: 'Remove waves.mov' })).toHaveFocus();
  });

  it('gives every preview back when the page goes', async () => {
    const { pick, unmount } = renderMediaPage();
    await pick(media('a.png', 'image/png'), media('b.gif', 'image/gif'));
    expect(made).toHaveLength(2);
    unmount();
    expect(revoked.sort()).toEqual([...made].sort());
  });

  it('skips a file already there (same name and size) without a word', async () => {
    const { pick } = renderMediaPage();
    await pick(media('a.png', 'image/png', 100));
    await pick(media('a.png', 'image/png', 100), media('a.png', 'image/png', 200));
    expect(screen.getAllByRole('img')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses unsupported types, files over their limit, a sixth file and more than 200MB', async () => {
    const { pick } = renderMediaPage();
    await pick(
      media('doc.pdf', 'application/pdf'),
      media('poster.png', 'image/png', 10 * MB + 1),
      media('long.mp4', 'video/mp4', 100 * MB + 1),
    );
    let alert = screen.getByRole('alert');
    expect(within(alert).getByText(/^Unsupported file type: doc\.pdf/)).toBeInTheDocument();
    expect(alert).toHaveTextContent('poster.png: File size exceeds 10MB limit');
    expect(alert).toHaveTextContent('long.mp4: File size exceeds 100MB limit');
    expect(screen.queryByRole('region', { name: 'Selected files' })).toBeNull();

    await pick(media('v1.mp4', 'video/mp4', 90 * MB), media('v2.mp4', 'video/mp4', 90 * MB), media('v3.mp4', 'video/mp4', 30 * MB));
    alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Total file size exceeds 200MB limit');
    expect(tiles()).toHaveLength(2);

    await pick(...['a', 'b', 'c', 'd'].map((n) => media(`${n}.webp`, 'image/webp')));
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 5 files allowed per post');
    expect(tiles()).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Add more' })).toBeDisabled();
  });

  it('asks for a file before publishing', async () => {
    const { user } = renderMediaPage();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one file');
  });

  it('sends the files and the caption, then goes to /home after 1.5 s', async () => {
    const received: Array<{ files: number; types: string[]; caption: FormDataEntryValue | null; auth: string | null }> =
      [];
    server.use(
      http.post(api('/posts/media'), async ({ request }) => {
        const form = await request.formData();
        const files = form.getAll('files').filter((f): f is File => typeof f !== 'string');
        received.push({
          files: files.length,
          types: files.map((f) => f.type),
          caption: form.get('caption'),
          auth: request.headers.get('authorization'),
        });
        return HttpResponse.json({ id: '9', type: 'media' }, { status: 201 });
      }),
    );
    localStorage.setItem('access_token', 'tok-9');
    const { pick, user } = renderMediaPage();
    await pick(media('a.jpg', 'image/jpeg'), media('b.webm', 'video/webm'));
    await user.type(screen.getByLabelText(/Caption/), ' Summer ');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
    expect(received).toEqual([{ files: 2, types: ['image/jpeg', 'video/webm'], caption: 'Summer', auth: 'Bearer tok-9' }]);
    await waitFor(() => expect(currentLocation()).toBe('/home'), { timeout: 2500 });
  });

  it("shows 'Failed to create post' when the server gives no words", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(api('/posts/media'), () => HttpResponse.json({ ok: false }, { status: 500 })));
    const { pick, user } = renderMediaPage();
    await pick(media('a.jpg', 'image/jpeg'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create post');
  });
});
