/// The page's script (`GET /app.js`): reads `/api/state`, follows `/api/events`, and sends each
/// action with the step or album it showed. Every piece of data reaches the page through
/// `textContent` or an attribute value, never as markup.
enum PageScript {
    static let text = #"""
        "use strict";
        (() => {
        const WINDOW = 200;
        const $ = (id) => document.getElementById(id);
        const state = { data: null, index: 0, offset: 0, search: "", currentId: null, busy: false, revision: -1, scope: "mine" };
        // The name this browser records its changes with (the server's user when empty), and whose
        // changes Undo and Redo take back: only this name's ("mine", the default) or the last step's.
        const authorInput = $("author");
        let authorName = localStorage.getItem("albums.author") || "";
        authorInput.value = authorName;
        authorInput.addEventListener("change", async () => {
          const name = authorInput.value.trim();
          if (name) {
            // The server checks the name as it checks --author; a bad one keeps the name before it.
            try {
              await api("GET", "/api/state?" + new URLSearchParams({ limit: "0", author: name }).toString());
            } catch (error) {
              authorInput.setAttribute("aria-invalid", "true");
              say(error.message, true);
              return;
            }
          }
          authorInput.removeAttribute("aria-invalid");
          authorInput.value = name;
          authorName = name;
          if (name) localStorage.setItem("albums.author", name); else localStorage.removeItem("albums.author");
          say(name ? "Your changes are recorded as " + name : "Your changes are recorded as the server's user");
          load().catch(failed);
        });
        function author() { return authorName || undefined; }

        const scopeSelect = $("undo-scope");
        state.scope = localStorage.getItem("albums.undo") === "everyone" ? "everyone" : "mine";
        scopeSelect.value = state.scope;
        scopeSelect.addEventListener("change", () => {
          state.scope = scopeSelect.value === "everyone" ? "everyone" : "mine";
          localStorage.setItem("albums.undo", state.scope);
          say(state.scope === "mine"
            ? "Undo and Redo now take back only your own changes"
            : "Undo and Redo now take back the last step, whoever made it");
          if (state.data) load().catch(failed);
        });

        function say(text, isError) {
          const status = $("status");
          status.textContent = text || "";
          status.classList.toggle("error", !!isError);
        }

        async function api(method, path, body) {
          const options = { method, headers: { "X-Albums-Request": "1" } };
          if (body instanceof Blob) {
            options.headers["Content-Type"] = body.type || "application/octet-stream";
            options.body = body;
          } else if (body !== undefined) {
            options.headers["Content-Type"] = "application/json";
            options.body = JSON.stringify(body);
          }
          const response = await fetch(path, options);
          let json = null;
          try { json = await response.json(); } catch (e) { json = null; }
          if (!response.ok) {
            const message = json && json.error ? json.error.message : ("the server answered " + response.status);
            const error = new Error(message);
            error.status = response.status;
            throw error;
          }
          return json;
        }

        async function load() {
          const params = new URLSearchParams({ offset: String(state.offset), limit: String(WINDOW) });
          if (state.search) params.set("q", state.search);
          if (authorName) params.set("author", authorName);
          if (state.scope === "mine") params.set("mine", "1");
          let data;
          try {
            data = await api("GET", "/api/state?" + params.toString());
          } catch (error) {
            // A stored name the server no longer takes: said once, then the server's user.
            if (error.status !== 400 || !authorName) throw error;
            authorName = "";
            authorInput.setAttribute("aria-invalid", "true");
            say(error.message, true);
            return load();
          }
          state.data = data;
          state.revision = data.revision;
          // Keep the album shown, wherever it went; else the same place.
          let found = -1;
          if (state.currentId) found = data.albums.findIndex((a) => a.id === state.currentId);
          if (found >= 0) {
            state.index = data.offset + found;
          } else {
            state.index = Math.min(state.index, Math.max(data.count - 1, 0));
            if (!inWindow(state.index) && data.count > 0) return loadAround(state.index);
          }
          const album = current();
          state.currentId = album ? album.id : null;
          render();
        }

        function inWindow(index) {
          const d = state.data;
          return d && index >= d.offset && index < d.offset + d.albums.length;
        }

        function loadAround(index) {
          state.offset = Math.max(0, index - Math.floor(WINDOW / 2));
          state.index = index;
          state.currentId = null;
          return load();
        }

        function current() {
          const d = state.data;
          if (!d || !inWindow(state.index)) return null;
          return d.albums[state.index - d.offset];
        }

        function hue(id) {
          let h = 0;
          for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
          return h;
        }

        function coverFor(album, selected) {
          const li = document.createElement("li");
          li.className = "cover" + (selected ? " selected" : "");
          li.setAttribute("role", "option");
          li.setAttribute("aria-selected", selected ? "true" : "false");
          li.dataset.id = album.id;
          li.style.setProperty("--hue", String(hue(album.id)));
          const art = document.createElement("div");
          art.className = "art";
          const title = document.createElement("span");
          title.className = "c-title";
          title.textContent = album.title;
          const artist = document.createElement("span");
          artist.className = "c-artist";
          artist.textContent = album.artist;
          art.append(title, artist);
          const image = storedImage(album, "c-image");
          if (image) art.append(image);
          const caption = document.createElement("div");
          caption.className = "caption";
          caption.textContent = album.title;
          li.append(art, caption);
          li.addEventListener("click", () => select(album.position - 1));
          return li;
        }

        // The image stored in the library, over the generated cover: if it fails to load, it is
        // removed and the generated cover shows (never a broken image). Its URL names its hash.
        function storedImage(album, className) {
          if (!album.storedCover) return null;
          const img = document.createElement("img");
          img.className = className;
          img.alt = "";
          img.decoding = "async";
          img.addEventListener("error", () => img.remove());
          img.src = "/covers/" + encodeURIComponent(album.id) + "?v=" + encodeURIComponent(album.storedCover.hash);
          return img;
        }

        // Stores an image file as the current album's cover (PUT, its bytes as the body); the
        // server checks the bytes, so the type here is only a quick refusal of what surely is not one.
        const COVER_LIMIT = 10 * 1024 * 1024;
        function uploadCover(file) {
          const album = current();
          if (!album || !file) return;
          if (file.size > COVER_LIMIT) { say("the image is larger than 10 MiB", true); return; }
          const query = author() ? "?author=" + encodeURIComponent(author()) : "";
          act(() => api("PUT", "/api/albums/" + encodeURIComponent(album.id) + "/cover" + query, file));
        }
        function removeCover() {
          const album = current();
          if (!album || !album.storedCover) return;
          const query = author() ? "?author=" + encodeURIComponent(author()) : "";
          act(() => api("DELETE", "/api/albums/" + encodeURIComponent(album.id) + "/cover" + query));
        }

        function render() {
          const d = state.data;
          const list = $("covers");
          list.replaceChildren();
          const album = current();
          for (const a of d.albums) list.append(coverFor(a, album && a.id === album.id));
          $("empty").hidden = d.count > 0;
          $("empty").textContent = state.search ? "No albums match “" + state.search + "”." : "No albums.";
          const selected = list.querySelector(".selected");
          if (selected) selected.scrollIntoView({ block: "nearest", inline: "center" });
          $("d-title").textContent = album ? album.title : "";
          $("d-artist").textContent = album ? album.artist : "";
          $("d-genre").textContent = album ? (album.genre || "—") : "";
          $("d-year").textContent = album ? (album.year ? String(album.year) : "—") : "";
          $("d-position").textContent = album ? album.position + " of " + (state.search ? d.count + " found" : d.count) : "";
          const cover = $("d-cover");
          cover.replaceChildren();
          if (album && album.cover) {
            // A cover from elsewhere is a link only: the page never loads it.
            const link = document.createElement("a");
            link.href = album.cover;
            link.rel = "noreferrer noopener";
            link.target = "_blank";
            link.textContent = album.cover;
            cover.append(link);
          } else if (album) {
            cover.textContent = "—";
          }
          const image = $("d-image");
          image.replaceChildren();
          const stored = album ? storedImage(album, "d-image") : null;
          if (stored) image.append(stored);
          $("cover-pick").disabled = !album || state.busy;
          $("cover-remove").disabled = !album || !album.storedCover || state.busy;
          renderUndoRedo(d);
          for (const id of ["edit", "move", "delete"]) $(id).disabled = !album || state.busy;
          $("add").disabled = state.busy;
          authorInput.placeholder = d.author;
          const history = $("history");
          history.replaceChildren();
          for (const step of d.history) {
            const li = document.createElement("li");
            li.className = step.done ? "done" : "undone";
            const text = document.createElement("span");
            text.className = "h-text";
            text.textContent = step.number + ". " + step.text;
            const who = document.createElement("span");
            who.className = "h-who";
            who.textContent = (step.author || "") + (step.time ? " · " + new Date(step.time).toLocaleTimeString() : "");
            li.append(text, who);
            history.append(li);
          }
          if (d.history.length === 0) {
            const li = document.createElement("li");
            li.className = "none";
            li.textContent = "No changes yet.";
            history.append(li);
          }
        }

        // Everyone's: the shared history's next step, whoever made it. Mine: this author's own latest
        // change (the server's preview, made in the same snapshot), or why it would be refused.
        function renderUndoRedo(d) {
          const undo = $("undo"), redo = $("redo"), note = $("undo-note");
          if (state.scope === "mine") {
            const mine = d.mine;
            // Just switched to mine: the state with its preview is on its way.
            if (!mine) { undo.disabled = redo.disabled = true; return; }
            for (const [button, verb, preview] of [[undo, "Undo", mine.undo], [redo, "Redo", mine.redo]]) {
              button.disabled = !preview.text || state.busy;
              button.textContent = preview.text ? verb + " your " + preview.text : verb + " yours";
              button.title = preview.text ? verb + " your " + preview.text + " (" + mine.author + ")" : preview.refused;
            }
            // A conflict is worth saying aloud; "nothing of yours to undo" stays in the tooltip.
            const conflict = [mine.undo, mine.redo].find((p) => p.code === "conflict");
            note.textContent = conflict ? conflict.refused : "";
            note.hidden = !conflict;
            return;
          }
          undo.disabled = !d.undo || state.busy;
          undo.textContent = d.undo ? "Undo " + d.undo.title : "Undo";
          undo.title = d.undo ? (d.undo.text + (d.undo.author ? " — by " + d.undo.author : "")) : "Nothing to undo";
          redo.disabled = !d.redo || state.busy;
          redo.textContent = d.redo ? "Redo " + d.redo.title : "Redo";
          redo.title = d.redo ? (d.redo.text + (d.redo.author ? " — by " + d.redo.author : "")) : "Nothing to redo";
          note.textContent = "";
          note.hidden = true;
        }

        function select(index) {
          const d = state.data;
          if (!d || d.count === 0) return;
          index = Math.max(0, Math.min(index, d.count - 1));
          state.index = index;
          if (!inWindow(index)) { loadAround(index).catch(failed); return; }
          state.currentId = current().id;
          render();
        }

        function failed(error) {
          say(error.message, true);
        }

        // Runs an action; a refusal (a stale page, an album gone) is said, then the page rereads.
        async function act(run) {
          if (state.busy) return;
          state.busy = true;
          render();
          try {
            const result = await run();
            if (result && result.album && result.album.id && result.message.startsWith("Added")) state.currentId = result.album.id;
            say(result ? result.message : "");
          } catch (error) {
            say(error.message + (error.status === 409 || error.status === 404 ? " — the page is refreshed" : ""), true);
          } finally {
            state.busy = false;
            try { await load(); } catch (error) { failed(error); }
          }
        }

        // Mine: the library decides again inside its transaction (a refusal is said, the page rereads).
        function undo() {
          const d = state.data;
          if (!d) return;
          if (state.scope === "mine") {
            if (!d.mine) return;
            if (!d.mine.undo.text) { say(d.mine.undo.refused, true); return; }
            act(() => api("POST", "/api/undo-mine", { author: author() }));
            return;
          }
          if (!d.undo) return;
          act(() => api("POST", "/api/undo", { expecting: d.undo.id, author: author() }));
        }
        function redo() {
          const d = state.data;
          if (!d) return;
          if (state.scope === "mine") {
            if (!d.mine) return;
            if (!d.mine.redo.text) { say(d.mine.redo.refused, true); return; }
            act(() => api("POST", "/api/redo-mine", { author: author() }));
            return;
          }
          if (!d.redo) return;
          act(() => api("POST", "/api/redo", { expecting: d.redo.id, author: author() }));
        }
        function remove() {
          const album = current();
          if (!album) return;
          act(() => api("DELETE", "/api/albums/" + album.id, { author: author() }));
        }

        let editing = null;
        function openForm(album) {
          editing = album;
          $("form-title").textContent = album ? "Edit album" : "Add album";
          $("f-title").value = album ? album.title : "";
          $("f-artist").value = album ? album.artist : "";
          $("f-genre").value = album ? album.genre : "";
          $("f-year").value = album && album.year ? String(album.year) : "";
          $("f-cover").value = album && album.cover ? album.cover : "";
          $("form-error").textContent = "";
          $("form-dialog").showModal();
          $("f-title").focus();
        }
        $("form").addEventListener("submit", (event) => {
          event.preventDefault();
          const year = $("f-year").value.trim();
          if (year && !/^[0-9]+$/.test(year)) { $("form-error").textContent = "Year takes digits only"; return; }
          const fields = {
            title: $("f-title").value, artist: $("f-artist").value, genre: $("f-genre").value,
            year: year ? Number(year) : null, cover: $("f-cover").value.trim() || null, author: author(),
          };
          const album = editing;
          $("form-dialog").close();
          if (album) {
            // Only the fields this edit changes: the step then claims no more of the album than it
            // touched, so another author's undo of a different field is not refused because of it.
            const changed = { author: fields.author };
            for (const key of ["title", "artist", "genre", "year", "cover"]) {
              if (fields[key] !== (album[key] === undefined ? null : album[key])) changed[key] = fields[key];
            }
            act(() => api("PATCH", "/api/albums/" + album.id, changed));
          } else {
            const shown = current();
            if (fields.year === null) delete fields.year;
            if (fields.cover === null) delete fields.cover;
            if (shown) fields.after = shown.id;
            act(() => api("POST", "/api/albums", fields));
          }
        });
        $("form-cancel").addEventListener("click", () => $("form-dialog").close());

        function openMove() {
          const album = current();
          if (!album) return;
          $("m-to").value = String(album.position);
          $("move-error").textContent = "";
          $("move-dialog").showModal();
          $("m-to").select();
        }
        $("move-form").addEventListener("submit", (event) => {
          event.preventDefault();
          const album = current();
          const to = $("m-to").value.trim();
          if (!/^[0-9]+$/.test(to)) { $("move-error").textContent = "A position is a whole number"; return; }
          $("move-dialog").close();
          if (album) act(() => api("POST", "/api/albums/" + album.id + "/move", { to: Number(to), author: author() }));
        });
        $("move-cancel").addEventListener("click", () => $("move-dialog").close());

        $("undo").addEventListener("click", undo);
        $("redo").addEventListener("click", redo);
        $("delete").addEventListener("click", remove);
        $("add").addEventListener("click", () => openForm(null));
        $("edit").addEventListener("click", () => { const a = current(); if (a) openForm(a); });
        $("move").addEventListener("click", openMove);

        let searchTimer = null;
        $("search").addEventListener("input", () => {
          clearTimeout(searchTimer);
          searchTimer = setTimeout(() => {
            state.search = $("search").value.trim();
            state.offset = 0;
            state.index = 0;
            state.currentId = null;
            load().catch(failed);
          }, 150);
        });

        document.addEventListener("keydown", (event) => {
          if (document.querySelector("dialog[open]")) return;
          const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
          const mod = event.ctrlKey || event.metaKey;
          if (mod && (event.key === "z" || event.key === "Z")) {
            if (typing) return;
            event.preventDefault();
            if (event.shiftKey) redo(); else undo();
            return;
          }
          if (mod && event.key === "y" && !typing) { event.preventDefault(); redo(); return; }
          if (typing) {
            if (event.key === "Escape") event.target.blur();
            return;
          }
          if (mod || event.altKey) return;
          switch (event.key) {
            case "ArrowRight": case "ArrowDown": event.preventDefault(); select(state.index + 1); break;
            case "ArrowLeft": case "ArrowUp": event.preventDefault(); select(state.index - 1); break;
            case "Home": event.preventDefault(); select(0); break;
            case "End": event.preventDefault(); if (state.data) select(state.data.count - 1); break;
            case "Delete": case "Backspace": event.preventDefault(); remove(); break;
            case "a": case "n": event.preventDefault(); openForm(null); break;
            case "e": { event.preventDefault(); const a = current(); if (a) openForm(a); break; }
            case "m": event.preventDefault(); openMove(); break;
            case "/": event.preventDefault(); $("search").focus(); break;
          }
        });

        // Live: the server sends the library's revision whenever anyone changes it, and a heartbeat
        // (with its interval and the revision) so that a stream gone quiet without closing is noticed:
        // after two missed heartbeats the page drops it and opens another.
        function listen() {
          const live = $("live");
          const events = new EventSource("/api/events");
          let interval = 15000, heard = Date.now(), watchdog = null, pending = -1;
          const offline = () => { live.textContent = "reconnecting…"; live.className = "live off"; };
          const follow = (data) => {
            let revision = -1, reopened = false;
            try { ({ revision, reopened = false } = JSON.parse(data)); } catch (e) { return; }
            // A reopened library file (a restore) may hold another history at the same revision.
            if (state.busy || (!reopened && (revision === state.revision || revision === pending))) return;
            pending = revision;
            load().catch(failed);
          };
          const watch = () => {
            clearTimeout(watchdog);
            watchdog = setTimeout(() => {
              if (Date.now() - heard <= 2.5 * interval) { watch(); return; }
              events.close();
              offline();
              listen();
            }, interval);
          };
          events.addEventListener("open", () => { heard = Date.now(); live.textContent = "live"; live.className = "live on"; });
          events.addEventListener("error", offline);
          events.addEventListener("heartbeat", (event) => {
            heard = Date.now();
            try { interval = Math.max(10, Number(JSON.parse(event.data).interval) || interval); } catch (e) { return; }
            watch();
            follow(event.data);
          });
          events.addEventListener("revision", (event) => { heard = Date.now(); follow(event.data); });
          watch();
        }

        // A cover from the file picker, or dropped on the scroller or the details.
        $("cover-pick").addEventListener("click", () => $("cover-file").click());
        $("cover-file").addEventListener("change", () => {
          const file = $("cover-file").files[0];
          $("cover-file").value = "";
          uploadCover(file);
        });
        $("cover-remove").addEventListener("click", removeCover);
        for (const id of ["covers", "details"]) {
          const zone = $(id);
          zone.addEventListener("dragover", (event) => {
            if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes("Files")) return;
            event.preventDefault();
            zone.classList.add("dropping");
          });
          zone.addEventListener("dragleave", () => zone.classList.remove("dropping"));
          zone.addEventListener("drop", (event) => {
            zone.classList.remove("dropping");
            if (!event.dataTransfer || event.dataTransfer.files.length === 0) return;
            event.preventDefault();
            uploadCover(event.dataTransfer.files[0]);
          });
        }

        load().then(() => { $("covers").focus(); }).catch(failed);
        listen();
        })();
        """#
}
