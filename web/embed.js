// <dsplay-embed>: the DaemonSet Playground in a documentation page. A standalone classic script
// (no wasm, no dependencies): <script src=".../embed.js" defer></script>, then
// <dsplay-embed script="kubectl get ds -A" autoplay></dsplay-embed>. It frames the playground
// (`?embed&origin=<this page>`: only this page may drive it) and speaks its postMessage API:
// requests wait until the frame posts {type: 'dsplay:ready'}, answers are matched by id.
// Attributes, events and methods: README.md, "Embedding in a documentation page".
(() => {
  if (customElements.get('dsplay-embed')) return;
  // The playground's folder: where this script was loaded from.
  const BASE = new URL('./', document.currentScript?.src ?? location.href).href;
  // Attributes passed to the playground as they are (flags) or with their value.
  const FLAGS = ['autoplay', 'readonly'];
  const VALUES = ['script', 'speed', 'view', 'lesson', 'theme'];
  const STYLE = `:host{display:block;position:relative;border:1px solid #d0d7e2;border-radius:8px;overflow:hidden;background:#f6f8fb}
iframe{display:block;width:100%;height:100%;border:0}
.poster{display:grid;place-content:center;gap:12px;height:100%;text-align:center;font:15px/1.4 system-ui,sans-serif;color:#3a4456}
.poster pre{margin:0;max-width:60ch;white-space:pre-wrap;font:13px ui-monospace,monospace;color:#5a6478}
.poster button{justify-self:center;display:flex;align-items:center;gap:8px;padding:10px 18px;border:0;border-radius:999px;background:#3d6df2;color:#fff;font:inherit;cursor:pointer}
.poster button:focus-visible{outline:3px solid #9bb6ff;outline-offset:2px}
:host([data-scene]){display:flex;flex-direction:column}
:host([data-scene]) iframe{flex:1;height:auto;min-height:0}
.scene{display:flex;align-items:center;gap:8px;padding:8px 10px;border-bottom:1px solid #d0d7e2;background:#fff;font:14px/1.4 system-ui,sans-serif;color:#1d2533}
.scene p{flex:1;margin:0}
.scene .count{color:#5a6478;font-size:12px;white-space:nowrap}
.scene button{padding:4px 10px;border:1px solid #c3cad8;border-radius:6px;background:#f6f8fb;font:inherit;cursor:pointer}
.scene button:disabled{opacity:.45;cursor:default}
.scene button{white-space:nowrap}
@media (max-width:560px){.scene{flex-wrap:wrap}.scene p{order:-1;flex-basis:100%}.scene .count{margin-left:auto}}`;

  class DsplayEmbed extends HTMLElement {
    #frame = null;
    #ready = false;
    #waiting = [];
    #pending = new Map();
    #nextId = 1;
    #onMessage = (e) => this.#receive(e);
    #scene = null;
    #at = 0;
    #showing = 0;

    connectedCallback() {
      // Upgraded while the parser is still at the start tag: the scene child comes later.
      if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', () => this.connectedCallback(), { once: true });
        return;
      }
      if (!this.isConnected) return;
      if (this.shadowRoot) {
        // Moved in the page: listen again (a moved frame reloads and says ready again).
        if (this.#frame) { this.#ready = false; addEventListener('message', this.#onMessage); }
        return;
      }
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = `<style>${STYLE}</style>`;
      this.style.height ||= `${parseInt(this.getAttribute('height'), 10) || 620}px`;
      this.#scene = readScene(this);
      if (this.#scene) this.#sceneBar(root);
      const loading = this.getAttribute('loading');
      if (loading === 'click') this.#poster(root);
      else if (loading === 'lazy' && 'IntersectionObserver' in window) {
        const observer = new IntersectionObserver((entries) => {
          if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); this.load(); }
        }, { rootMargin: '200px' });
        observer.observe(this);
      } else this.load();
    }

    disconnectedCallback() { removeEventListener('message', this.#onMessage); }

    /** The playground's URL with this element's options. */
    get url() {
      const url = new URL(this.getAttribute('src') || BASE, location.href);
      const params = ['embed', `origin=${encodeURIComponent(location.origin)}`];
      for (const name of FLAGS) if (this.hasAttribute(name)) params.push(name);
      for (const name of VALUES) {
        const value = this.getAttribute(name);
        if (value) params.push(`${name}=${encodeURIComponent(name === 'script' ? dedent(value) : value)}`);
      }
      url.search = params.join('&');
      return url;
    }

    /** Creates the frame (once); `loading="click"` and `"lazy"` call it later. */
    load() {
      if (this.#frame) return;
      const frame = document.createElement('iframe');
      frame.title = this.getAttribute('title') || 'DaemonSet Playground';
      frame.src = this.url.href;
      addEventListener('message', this.#onMessage);
      this.shadowRoot.querySelector('.poster')?.remove();
      this.shadowRoot.append(frame);
      this.#frame = frame;
    }

    run(command) { return this.#request('run', command).then(({ output, success }) => ({ output, success })); }
    apply(yaml) { return this.#request('apply', yaml).then(({ output, success }) => ({ output, success })); }
    play() { return this.#request('play'); }
    pause() { return this.#request('pause'); }
    step() { return this.#request('step'); }
    seek(ms) { return this.#request('seek', Number(ms)); }
    reset() { return this.#request('reset'); }
    state() { return this.#request('state').then((reply) => reply.result); }

    /** The scene's step shown (0-based), -1 without a scene. */
    get sceneStep() { return this.#scene ? this.#at : -1; }

    /**
     * Shows step `index` of the scene: back to the start (the script), the earlier steps' commands
     * each followed by `sim settle` (or their duration), then this step's commands with the clock
     * playing until the cluster settles (or for the step's duration).
     */
    async showStep(index) {
      const steps = this.#scene ?? [];
      if (!steps.length) return;
      const at = Math.max(0, Math.min(steps.length - 1, index));
      const showing = ++this.#showing;
      this.#at = at;
      this.#renderScene();
      await this.pause();
      await this.reset();
      for (const step of steps.slice(0, at)) {
        if (step.commands) await this.run(step.commands);
        await this.run(step.duration ? `sim advance ${step.duration}` : 'sim settle');
      }
      if (steps[at].commands) await this.run(steps[at].commands);
      if (showing !== this.#showing) return;
      await this.play();
      const stop = steps[at].duration ? Date.now() + parseDuration(steps[at].duration) : Infinity;
      while (showing === this.#showing && Date.now() < stop) {
        await new Promise((ok) => setTimeout(ok, 500));
        if (stop === Infinity && settled(await this.state())) break;
      }
      if (showing !== this.#showing) return;
      await this.pause();
      // `loop`: the scene plays itself, step after step, then from the start again.
      if (this.hasAttribute('loop')) {
        await new Promise((ok) => setTimeout(ok, 2500));
        if (showing === this.#showing) this.showStep((at + 1) % steps.length);
      }
    }

    #sceneBar(root) {
      this.dataset.scene = '';
      const bar = document.createElement('div');
      bar.className = 'scene';
      bar.setAttribute('role', 'group');
      bar.setAttribute('aria-label', 'Scene');
      bar.innerHTML = '<button type="button" data-go="-1">◀ Previous</button><p aria-live="polite"></p>'
        + '<span class="count"></span><button type="button" data-go="0">↺ Replay</button><button type="button" data-go="1">Next ▶</button>';
      bar.addEventListener('click', (e) => {
        const go = e.target.closest('button')?.dataset.go;
        if (go !== undefined) this.showStep(this.#at + Number(go));
      });
      root.append(bar);
      this.addEventListener('ready', () => this.showStep(this.#at), { once: true });
      this.#renderScene();
    }

    #renderScene() {
      const bar = this.shadowRoot.querySelector('.scene');
      const steps = this.#scene;
      bar.querySelector('p').textContent = steps[this.#at].caption ?? '';
      bar.querySelector('.count').textContent = `${this.#at + 1} / ${steps.length}`;
      bar.querySelector('[data-go="-1"]').disabled = this.#at === 0;
      bar.querySelector('[data-go="1"]').disabled = this.#at === steps.length - 1;
    }

    #poster(root) {
      const poster = document.createElement('div');
      poster.className = 'poster';
      const title = document.createElement('strong');
      title.textContent = this.getAttribute('title') || 'DaemonSet Playground';
      const button = document.createElement('button');
      button.type = 'button';
      button.innerHTML = '<span aria-hidden="true">▶</span>';
      button.append('Load the playground');
      button.addEventListener('click', () => this.load());
      poster.append(title);
      const script = this.getAttribute('script');
      if (script) {
        const pre = document.createElement('pre');
        pre.textContent = dedent(script);
        poster.append(pre);
      }
      poster.append(button);
      root.append(poster);
    }

    /** Sends a request now if the playground is ready, else when it is (loading it if needed). */
    #request(method, arg) {
      return new Promise((resolve) => {
        const id = `dsplay-embed-${this.#nextId++}`;
        this.#pending.set(id, resolve);
        const message = { type: 'dsplay:request', id, method, arg };
        if (this.#ready) this.#post(message);
        else this.#waiting.push(message);
        this.load();
      });
    }

    #post(message) { this.#frame.contentWindow.postMessage(message, this.url.origin); }

    #receive(e) {
      if (!this.#frame || e.source !== this.#frame.contentWindow || e.origin !== this.url.origin) return;
      const data = e.data ?? {};
      if (data.type === 'dsplay:ready') {
        this.#ready = true;
        this.#waiting.splice(0).forEach((m) => this.#post(m));
        this.dispatchEvent(new CustomEvent('ready'));
      } else if (data.type === 'dsplay:response' || data.type === 'dsplay:output') {
        const resolve = this.#pending.get(data.id);
        this.#pending.delete(data.id);
        resolve?.(data);
        if (data.output) this.dispatchEvent(new CustomEvent('output', { detail: { output: data.output, success: data.success } }));
      } else if (data.type === 'dsplay:change') {
        this.dispatchEvent(new CustomEvent('change', { detail: { log: data.log } }));
      }
    }
  }

  /**
   * The scene of `element`: its `scene` attribute or its <script type="text/x-dsplay-scene"> child,
   * JSON: [{caption, commands, duration}] or {steps: [...]}; null if none or not valid.
   */
  function readScene(element) {
    const text = element.getAttribute('scene') ?? element.querySelector('script[type="text/x-dsplay-scene"]')?.textContent;
    if (!text) return null;
    try {
      const json = JSON.parse(text);
      const steps = (Array.isArray(json) ? json : json.steps ?? []).filter((s) => s && typeof s === 'object').map((s) => ({
        caption: String(s.caption ?? ''),
        commands: dedent(Array.isArray(s.commands) ? s.commands.join('\n') : String(s.commands ?? '')),
        duration: /^\d+(ms|s|m)$/.test(s.duration ?? '') ? s.duration : null,
      }));
      return steps.length ? steps : null;
    } catch (e) {
      console.warn('dsplay-embed: the scene is not valid JSON:', e.message);
      return null;
    }
  }

  /** `10s`, `500ms`, `2m` in wall-clock milliseconds. */
  function parseDuration(text) {
    const [, n, unit] = text.match(/^(\d+)(ms|s|m)$/);
    return Number(n) * { ms: 1, s: 1000, m: 60000 }[unit];
  }

  /** Every DaemonSet has all its pods updated and available, and every pod is ready. */
  function settled(state) {
    return state.daemonSets.every((d) => d.updated === d.desired && d.available === d.desired)
      && state.pods.every((p) => p.ready);
  }

  /** A script written indented inside HTML, without the common indentation and blank edges. */
  function dedent(text) {
    const lines = text.replace(/^\s*\n|\n\s*$/g, '').split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^\s*/)[0].length));
    return lines.map((l) => l.slice(indent)).join('\n');
  }

  customElements.define('dsplay-embed', DsplayEmbed);
})();
