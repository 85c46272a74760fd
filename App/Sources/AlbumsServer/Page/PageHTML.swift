/// The page `GET /` serves: structure only; the script fills it (with `textContent`, never markup
/// from data) and the style lays it out. Both are files of this server, so the
/// Content-Security-Policy allows no inline script or style at all.
enum PageHTML {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Albums</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header class="bar">
          <h1>Albums</h1>
          <span id="live" class="live" title="Live updates">connecting…</span>
          <label class="author">You are
            <input id="author" type="text" autocomplete="nickname" spellcheck="false" aria-label="Your name, recorded with your changes">
          </label>
          <label class="scope">Undo
            <select id="undo-scope" aria-label="Whose changes Undo and Redo take back">
              <option value="mine">mine</option>
              <option value="everyone">everyone</option>
            </select>
          </label>
        </header>
        <nav class="toolbar" aria-label="Actions">
          <button id="undo" type="button" disabled title="Ctrl+Z">Undo</button>
          <button id="redo" type="button" disabled title="Shift+Ctrl+Z">Redo</button>
          <span class="sep"></span>
          <button id="add" type="button" title="A">Add</button>
          <button id="edit" type="button" disabled title="E">Edit</button>
          <button id="move" type="button" disabled title="M">Move</button>
          <button id="delete" type="button" disabled title="Delete" class="danger">Delete</button>
          <span class="grow"></span>
          <input id="search" type="search" placeholder="Search (/)" aria-label="Search albums" spellcheck="false">
        </nav>
        <p id="undo-note" class="undo-note" role="note" hidden></p>
        <main>
          <section class="scroller-wrap" aria-label="Albums">
            <ol id="covers" class="scroller" role="listbox" tabindex="0" aria-label="Album covers"></ol>
            <p id="empty" class="empty" hidden>No albums.</p>
          </section>
          <div class="lower">
            <section id="details" class="details" aria-live="polite">
              <h2 id="d-title"></h2>
              <p id="d-artist" class="artist"></p>
              <dl>
                <dt>Genre</dt><dd id="d-genre"></dd>
                <dt>Year</dt><dd id="d-year"></dd>
                <dt>Position</dt><dd id="d-position"></dd>
                <dt>Cover</dt><dd id="d-cover"></dd>
                <dt>Image</dt><dd class="d-image-row"><span id="d-image"></span>
                  <button id="cover-pick" type="button" disabled title="Or drop an image on the covers">Choose image…</button>
                  <button id="cover-remove" type="button" disabled>Remove image</button>
                  <input id="cover-file" type="file" accept="image/png,image/jpeg,image/webp,image/gif" hidden></dd>
              </dl>
            </section>
            <section class="history" aria-label="History">
              <h2>History</h2>
              <ol id="history"></ol>
            </section>
          </div>
        </main>
        <footer><p id="status" role="status" class="status"></p></footer>
        <dialog id="form-dialog">
          <form id="form" method="dialog">
            <h2 id="form-title">Add album</h2>
            <label>Title <input id="f-title" name="title" required maxlength="1000"></label>
            <label>Artist <input id="f-artist" name="artist" required maxlength="1000"></label>
            <label>Genre <input id="f-genre" name="genre" maxlength="1000"></label>
            <label>Year <input id="f-year" name="year" inputmode="numeric" maxlength="4"></label>
            <label>Cover URL <input id="f-cover" name="cover" type="url"></label>
            <p id="form-error" class="form-error" role="alert"></p>
            <div class="buttons">
              <button id="form-cancel" type="button" value="cancel">Cancel</button>
              <button id="form-save" type="submit" value="save" class="primary">Save</button>
            </div>
          </form>
        </dialog>
        <dialog id="move-dialog">
          <form id="move-form" method="dialog">
            <h2>Move album</h2>
            <label>To position <input id="m-to" inputmode="numeric" required></label>
            <p id="move-error" class="form-error" role="alert"></p>
            <div class="buttons">
              <button id="move-cancel" type="button">Cancel</button>
              <button type="submit" class="primary">Move</button>
            </div>
          </form>
        </dialog>
        </body>
        </html>
        """#
}
