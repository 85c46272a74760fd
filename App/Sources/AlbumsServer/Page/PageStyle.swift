/// The page's style (`GET /app.css`): a dark album shelf, one column on a phone.
enum PageStyle {
    static let text = #"""
        :root { color-scheme: dark; --bg: #15161a; --panel: #1f2127; --line: #30333b; --text: #eceef2;
          --muted: #9aa0ad; --accent: #5b9dff; --danger: #ff6b6b; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; }
        body { background: var(--bg); color: var(--text); display: flex; flex-direction: column; min-height: 100vh; }
        .bar { display: flex; align-items: center; gap: 16px; padding: 12px 20px; border-bottom: 1px solid var(--line); }
        .bar h1 { font-size: 20px; margin: 0; letter-spacing: .02em; }
        .live { font-size: 12px; color: var(--muted); }
        .live.on::before { content: "●"; color: #3ecf8e; margin-right: 4px; }
        .live.off::before { content: "●"; color: #e5a13b; margin-right: 4px; }
        .author { margin-left: auto; font-size: 13px; color: var(--muted); display: flex; align-items: center; gap: 8px; }
        input, button { font: inherit; }
        input { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; min-width: 0; }
        input:focus-visible, button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .scroller:focus-visible { outline: none; }
        .scroller:focus-visible .cover.selected .art { outline-color: #fff; }
        .author input { width: 180px; }
        .author input[aria-invalid="true"] { border-color: var(--danger); }
        .scope { font-size: 13px; color: var(--muted); display: flex; align-items: center; gap: 8px; }
        select { font: inherit; background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px; }
        select:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .undo-note { margin: 0; padding: 6px 20px; font-size: 13px; color: #e5a13b; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 10px 20px; border-bottom: 1px solid var(--line); }
        .toolbar .sep { width: 1px; height: 24px; background: var(--line); margin: 0 4px; }
        .toolbar .grow { flex: 1; }
        #search { width: 240px; }
        button { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; cursor: pointer;
          max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        button:hover:not(:disabled) { border-color: var(--accent); }
        button:disabled { opacity: .45; cursor: default; }
        button.primary { background: var(--accent); border-color: var(--accent); color: #0b1220; }
        button.danger:not(:disabled) { color: var(--danger); }
        main { flex: 1 0 auto; display: flex; flex-direction: column; }
        .scroller-wrap { padding: 20px 0 8px; }
        .scroller { list-style: none; margin: 0; padding: 8px 20px 16px; display: flex; gap: 18px; overflow-x: auto; scroll-snap-type: x proximity; }
        .cover { flex: 0 0 auto; width: 180px; cursor: pointer; scroll-snap-align: center; }
        .cover .art { width: 180px; height: 180px; border-radius: 8px; padding: 14px; display: flex; flex-direction: column; justify-content: flex-end;
          background: linear-gradient(150deg, hsl(var(--hue) 55% 46%), hsl(calc(var(--hue) + 40) 50% 22%));
          box-shadow: 0 6px 18px rgba(0,0,0,.35); overflow: hidden; transition: transform .12s ease; }
        .cover.selected .art { outline: 3px solid var(--accent); outline-offset: 3px; transform: translateY(-4px); }
        .c-title { font-weight: 700; font-size: 17px; line-height: 1.2; overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical; overflow: hidden; }
        .c-artist { font-size: 13px; opacity: .85; margin-top: 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .cover .art { position: relative; }
        .c-image { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
        .d-image-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
        img.d-image { width: 96px; height: 96px; object-fit: cover; border-radius: 6px; }
        .dropping { outline: 2px dashed var(--accent); outline-offset: -4px; }
        .caption { font-size: 13px; color: var(--muted); margin-top: 8px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .empty { padding: 40px 20px; color: var(--muted); }
        .lower { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 20px; padding: 8px 20px 20px; min-height: 0; }
        .details, .history { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; min-width: 0; }
        .details h2 { margin: 0 0 4px; font-size: 24px; overflow-wrap: anywhere; }
        .details .artist { margin: 0 0 12px; color: var(--muted); font-size: 16px; overflow-wrap: anywhere; }
        dl { display: grid; grid-template-columns: 90px minmax(0, 1fr); gap: 6px 12px; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; overflow-wrap: anywhere; }
        dd a { color: var(--accent); }
        .history h2 { font-size: 15px; margin: 0 0 8px; }
        #history { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font-size: 13px; }
        #history li { padding: 5px 0; border-bottom: 1px solid var(--line); display: flex; flex-direction: column; }
        #history li.undone { color: var(--muted); text-decoration: line-through; }
        #history li.none { color: var(--muted); }
        .h-text { overflow-wrap: anywhere; }
        .h-who { color: var(--muted); font-size: 11px; }
        footer { border-top: 1px solid var(--line); padding: 8px 20px; min-height: 38px; position: sticky; bottom: 0; background: var(--bg); }
        .status { margin: 0; font-size: 14px; overflow-wrap: anywhere; }
        .status.error { color: var(--danger); }
        dialog { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 12px; width: min(440px, 92vw); }
        dialog::backdrop { background: rgba(0,0,0,.55); }
        dialog h2 { margin-top: 0; font-size: 18px; }
        dialog label { display: flex; flex-direction: column; gap: 4px; margin-bottom: 10px; font-size: 13px; color: var(--muted); }
        .buttons { display: flex; justify-content: flex-end; gap: 8px; }
        .form-error { color: var(--danger); min-height: 1.2em; margin: 4px 0 8px; font-size: 13px; }
        @media (max-width: 700px) {
          .bar { flex-wrap: wrap; gap: 8px; padding: 10px 14px; }
          .author { margin-left: 0; flex: 1 1 180px; min-width: 0; white-space: nowrap; }
          .undo-note { padding: 6px 14px; }
          .author input { flex: 1; width: auto; }
          .toolbar { padding: 8px 14px; gap: 6px; }
          .toolbar .sep, .toolbar .grow { display: none; }
          .toolbar button { flex: 1 1 30%; max-width: none; }
          #search { width: 100%; }
          .scroller { padding: 8px 14px 12px; gap: 12px; }
          .cover, .cover .art { width: 140px; }
          .cover .art { height: 140px; padding: 10px; }
          .c-title { font-size: 15px; }
          .lower { grid-template-columns: 1fr; padding: 8px 14px 14px; }
        }
        """#
}
