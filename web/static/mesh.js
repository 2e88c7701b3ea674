// The WebRTC glue the browser demands: signalling socket, one RTCPeerConnection per peer,
// the "table" data channel, microphone and camera. Everything else (chat, roster, the game)
// is Python; this module only reports events to it through `onEvent(type, detail)`.
// Wire protocol: docs/signaling.md.
//
// A game outlives the signalling server. Links are keyed by a stable *link id* (the peer's first
// server id); the server's ids, which change on every rejoin, are mapped onto it here, so the
// Python side never sees a peer change id. The page pings the server and treats a silent socket
// as dead; it reconnects with backoff and rejoins with its resume token. If the room is gone
// (the server restarted), the lowest-order peer still linked re-creates it under the same code
// and the others join it; if the code holds someone else's room, the page makes a new room and
// the linked peers follow it. Links that still carry data are kept, never renegotiated. A link
// whose ICE drops is restarted by the side that offered it (docs/signaling.md, "Faults").
//
// `room` is where the page wants to be, `seated` where the server has it on this socket, and
// `asked` the one create or join in flight there: the server answers the frames of a socket in
// order, so an answer to an older wish (the room moved meanwhile) is recognised and corrected.

const PING_TIMEOUT_MS = 5000;
const SERVER_PING_MS = 4000; // how often the page pings the signalling server
const SERVER_DEAD_MS = 10000; // no frame for this long: the socket is dead
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000]; // then 8 s, each with up to 50% jitter
const ICE_RESTART_MS = 3000; // ICE disconnected or failed this long: restart it
const ORPHAN_MS = 30000; // a link without signalling whose ICE stays down is given up

// The server's refusals of a create or join (docs/signaling.md), the answer to one in flight.
const JOIN_ERRORS = new Set([
  "no-room",
  "room-taken",
  "name-taken",
  "room-full",
  "bad-name",
  "bad-message",
  "already-in-room",
  "too-many-rooms",
  "join-rate-limit",
  "rate-limit",
  "unavailable",
]);

const ROOM_EVENTS = new Set(["peer-joined", "peer-left", "signal"]);

export class Mesh {
  constructor({ url, iceServers, onEvent, voice = true }) {
    this.url = url;
    this.ownIce = iceServers || []; // the page's own setting
    this.iceServers = this.ownIce; // plus what the server issues (TURN with fresh credentials)
    this.icePolicy = localStorage.getItem("mt.relay") === "on" ? "relay" : "all";
    this.onEvent = onEvent;
    this.voice = voice;
    this.ws = null;
    this.you = null; // this page's server id now
    this.self = null; // this page's link id (its first server id)
    this.room = null; // the room this page belongs in
    this.seated = null; // the room the server has this socket in
    this.asked = null; // the create or join sent on this socket and not answered yet
    this.movedFrom = null; // the room the last move to a new room left
    this.host = null;
    this.request = null; // name and role of the create/join, for rejoining
    this.resume = null;
    this.resumeRoom = null; // the room `resume` is a token of
    this.leaving = false;
    this.rejoining = false;
    this.noRoom = 0;
    this.retryTimer = null;
    this.lastFrame = 0;
    this.pinger = null;
    this.peers = new Map(); // link id -> {pc, dc, pending, info, sid, offerer, audio, video}
    this.bySid = new Map(); // server id -> link id
    this.micStream = null;
    this.camTrack = null;
    this.muted = false;
    this.pings = new Map(); // n -> resolve
    this.pingCounter = 0;
    this.trace = []; // the last signalling events, for the report of a fault
  }

  note(text) {
    this.trace.push(`${Math.round(performance.now())} ${text}`);
    if (this.trace.length > 40) this.trace.shift();
  }

  emit(type, detail) {
    try {
      this.onEvent(type, detail);
    } catch (error) {
      console.error("event handler failed", type, String(error));
    }
  }

  async connect() {
    if (this.ws && this.ws.readyState <= 1) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    await new Promise((resolve, reject) => {
      const fail = () => {
        clearTimeout(timer);
        reject(new Error("signalling server unreachable"));
      };
      const timer = setTimeout(() => {
        ws.close(); // a black-holed network never answers: give up on this attempt
        fail();
      }, SERVER_DEAD_MS);
      ws.onopen = () => {
        clearTimeout(timer);
        resolve();
      };
      ws.onerror = fail;
      ws.onclose = fail;
    });
    this.lastFrame = this.lastTick = performance.now();
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastFrame = performance.now();
      this.onSignal(JSON.parse(event.data));
    };
    ws.onclose = () => this.socketLost(ws);
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.pingServer(ws), SERVER_PING_MS);
  }

  pingServer(ws) {
    if (ws !== this.ws || ws.readyState !== 1) return;
    const now = performance.now();
    const late = now - (this.lastTick || now) > 2 * SERVER_PING_MS; // the page itself was busy
    this.lastTick = now;
    if (late) this.lastFrame = Math.max(this.lastFrame, now - SERVER_PING_MS); // judge it later
    if (now - this.lastFrame > SERVER_DEAD_MS) {
      ws.close(); // silent for too long: dead, whatever the browser thinks
      this.socketLost(ws);
      return;
    }
    ws.send(JSON.stringify({ type: "ping" }));
  }

  socketLost(ws) {
    if (ws !== this.ws || this.leaving) return;
    this.note("socket lost");
    this.ws = null;
    this.seated = this.asked = null; // whatever it was asked is lost with it
    clearTimeout(this.retryTimer);
    clearInterval(this.pinger);
    if (!this.room) {
      this.emit("server-closed", {});
      return;
    }
    if (!this.rejoining) this.emit("server-closed", {});
    this.rejoining = true;
    this.reconnect();
  }

  async reconnect() {
    for (let attempt = 0; !this.leaving; attempt++) {
      const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, base * (1 + Math.random() / 2)));
      if (this.leaving || this.ws) return;
      try {
        this.note(`connect #${attempt}`);
        await this.connect();
      } catch {
        this.ws = null;
        continue;
      }
      this.rejoin();
      return;
    }
  }

  // Bring the socket into `room`: leave the one it is in, join. Safe to call any time (a stale
  // timer, twice over): it waits for the connection and for an answer in flight.
  rejoin() {
    clearTimeout(this.retryTimer);
    if (this.leaving || !this.ws || this.ws.readyState !== 1 || this.asked) return;
    if (this.seated === this.room) return;
    if (this.seated) this.sendFrame({ type: "leave" });
    this.seated = null;
    const request = { type: "join", room: this.room, ...this.request };
    if (this.resume && this.resumeRoom === this.room) request.resume = this.resume;
    this.ask(request);
  }

  ask(frame, extra = {}) {
    clearTimeout(this.retryTimer);
    this.asked = { ...frame, ...extra };
    this.sendFrame(frame);
  }

  // An answer to a request made for another room than the one the page now belongs in.
  stale(asked) {
    return (asked.fresh ? asked.from : asked.room) !== this.room;
  }

  sendFrame(frame) {
    if (frame.type !== "signal") this.note(`-> ${frame.type} ${frame.room || ""}`);
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(frame));
  }

  async start(request) {
    await this.prepareMic();
    await this.connect();
    this.request = { name: request.name, role: request.role };
    this.ask(request);
  }

  create(name, role) {
    return this.start({ type: "create", name, role });
  }

  join(room, name, role, resume) {
    const request = { type: "join", room, name, role };
    if (resume) request.resume = resume;
    return this.start(request);
  }

  leave() {
    this.leaving = true;
    clearInterval(this.pinger);
    this.sendFrame({ type: "leave" });
    for (const id of [...this.peers.keys()]) this.dropPeer(id);
    if (this.ws) this.ws.close();
  }

  addBot() {
    this.sendFrame({ type: "add-bot" });
  }

  // `to` is a link id; the frame goes to that peer's current server id.
  signal(to, data) {
    const entry = this.peers.get(to);
    const sid = entry ? entry.sid : to;
    if (sid) this.sendFrame({ type: "signal", to: sid, data });
  }

  linkOf(sid) {
    return sid === this.you ? this.self : this.bySid.get(sid) || sid;
  }

  async onSignal(message) {
    if (message.type !== "pong" && message.type !== "signal") {
      this.note(`<- ${message.type} ${message.room || message.code || ""}`);
    }
    const away = this.self && this.seated !== this.room; // on the way out of a wrong room
    if (away && ROOM_EVENTS.has(message.type)) return; // its comings and goings are not ours
    switch (message.type) {
      case "joined": {
        const asked = this.asked;
        this.asked = null;
        this.seated = message.room;
        this.you = message.you;
        this.noRoom = 0;
        if (this.self) {
          await this.onRejoined(message, asked);
          break;
        }
        this.resume = message.resume;
        this.resumeRoom = message.room;
        this.host = message.host;
        this.useServerIce(message);
        this.self = message.you;
        this.room = message.room;
        this.order = (message.roster.find((peer) => peer.id === message.you) || {}).order || 0;
        this.emit("joined", message);
        for (const peer of message.roster) {
          if (peer.id !== this.you) await this.offer(peer);
        }
        break;
      }
      case "peer-joined":
        this.onPeerJoined(message.peer);
        break;
      case "peer-left":
        this.onPeerLeft(message.peer, message.host);
        break;
      case "signal":
        await this.onPeerSignal(message.from, message.data);
        break;
      case "pong":
        break;
      case "error": {
        const asked = JOIN_ERRORS.has(message.code) ? this.asked : null;
        if (asked) this.asked = null; // the answer to the create or join
        if (asked && this.self && this.onRejoinError(message.code, asked)) break;
        this.emit(message.type, message);
        break;
      }
      default:
        this.emit(message.type, message);
    }
  }

  // ----- faults: rejoining the signalling server, re-creating a gone room ------------------

  useServerIce(joined) {
    const issued = Array.isArray(joined.iceServers) ? joined.iceServers : [];
    this.iceServers = [...this.ownIce, ...issued];
    if (joined.iceTransportPolicy === "relay") this.icePolicy = "relay";
    for (const entry of this.peers.values()) {
      try {
        entry.pc.setConfiguration(this.pcConfig());
      } catch (error) {
        console.warn("ICE servers not updated", String(error));
      }
    }
  }

  pcConfig() {
    return { iceServers: this.iceServers, iceTransportPolicy: this.icePolicy };
  }

  alive(entry) {
    return Boolean(entry && entry.dc && entry.dc.readyState === "open");
  }

  // The entry of a peer we knew by another server id: same name and role.
  known(info) {
    const name = String(info.name).toLowerCase();
    for (const [link, entry] of this.peers) {
      if (entry.info.name.toLowerCase() === name && entry.info.role === info.role) return link;
    }
    return null;
  }

  rekey(link, sid) {
    const entry = this.peers.get(link);
    if (entry.sid) this.bySid.delete(entry.sid);
    entry.sid = sid;
    entry.lostSince = 0;
    this.bySid.set(sid, link);
    this.checkIce(link);
  }

  onPeerJoined(info) {
    const link = this.known(info);
    if (link && this.alive(this.peers.get(link))) {
      this.rekey(link, info.id); // a known peer back on the server: same link, no renegotiation
      return;
    }
    if (link) this.forget(link);
    this.bySid.set(info.id, info.id);
    this.ensurePeer(info);
    this.emit("peer-joined", { type: "peer-joined", peer: info });
  }

  onPeerLeft(sid, host) {
    this.host = host;
    const link = this.bySid.get(sid);
    this.bySid.delete(sid);
    const entry = link ? this.peers.get(link) : null;
    if (entry && entry.sid === sid && this.alive(entry)) {
      entry.sid = null; // its signalling went away; the link still carries the game
      entry.lostSince = performance.now();
      return;
    }
    if (entry && entry.sid !== sid) return; // an old id of a peer already back
    this.dropPeer(link || sid);
    this.emit("peer-left", { type: "peer-left", peer: link || sid, host: this.linkOf(host) });
  }

  forget(link) {
    this.dropPeer(link);
    this.emit("peer-left", { type: "peer-left", peer: link, host: this.linkOf(this.host) });
  }

  async onRejoined(message, asked) {
    let made = false;
    if (asked && asked.fresh && !this.stale(asked)) {
      this.movedFrom = this.room; // a new room of our own: the linked peers follow it
      this.room = message.room;
      made = true;
    }
    if (message.room !== this.room) {
      this.rejoin(); // the page moved on while this was asked: leave, join where it belongs
      return;
    }
    const previous = this.resumeRoom;
    this.resume = message.resume;
    this.resumeRoom = message.room;
    this.host = message.host;
    this.useServerIce(message);
    this.rejoining = false;
    const matched = new Set();
    const fresh = [];
    for (const info of message.roster) {
      if (info.id === this.you) continue;
      const link = this.known(info);
      if (link && this.alive(this.peers.get(link))) {
        this.rekey(link, info.id);
        matched.add(link);
        continue;
      }
      if (link) this.forget(link);
      fresh.push(info);
    }
    for (const [link, entry] of [...this.peers]) {
      if (matched.has(link)) continue;
      if (entry.sid) this.bySid.delete(entry.sid);
      entry.sid = null; // not back on the server yet: kept while its link lives
      entry.lostSince = entry.lostSince || performance.now();
      if (!this.alive(entry)) this.forget(link);
    }
    this.emit("rejoined", {
      room: this.room,
      previous,
      resume: this.resume,
      host: this.linkOf(message.host),
    });
    for (const info of fresh) {
      this.bySid.set(info.id, info.id);
      this.emit("peer-joined", { type: "peer-joined", peer: info });
      await this.offer(info);
    }
    if (made) this.tellRoom();
  }

  // The peers this page still has a live link to, and itself, by their order in the room.
  rank() {
    const lower = [...this.peers.values()].filter(
      (entry) => this.alive(entry) && entry.info.order < this.order,
    );
    return lower.length;
  }

  onRejoinError(code, asked) {
    if (this.stale(asked)) {
      this.rejoin(); // refused somewhere the page no longer belongs: go where it does
      return true;
    }
    if (code === "no-room") {
      // The room is gone. The lowest-order live peer re-creates it; the others wait a little
      // longer each (by rank), in case it cannot.
      this.noRoom += 1;
      if (this.noRoom > 2 * this.rank()) {
        this.ask({ type: "create", room: this.room, ...this.request });
      } else {
        this.retryJoin();
      }
      return true;
    }
    if (code === "room-taken") {
      this.retryJoin(); // someone re-created it first: join
      return true;
    }
    if (code === "name-taken" || code === "room-full") {
      // That code now holds another room: make a fresh one and tell the linked peers.
      this.ask({ type: "create", ...this.request }, { fresh: true, from: this.room });
      return true;
    }
    if (code === "join-rate-limit" || code === "unavailable" || code === "rate-limit") {
      this.retryJoin(2000);
      return true;
    }
    return false;
  }

  retryJoin(delay) {
    const wait = delay || BACKOFF_MS[Math.min(this.noRoom, BACKOFF_MS.length - 1)];
    clearTimeout(this.retryTimer); // one timer at a time; rejoin() is a no-op once seated
    this.retryTimer = setTimeout(() => this.rejoin(), wait * (1 + Math.random() / 2));
  }

  moveNote() {
    return JSON.stringify({ t: "mesh-room", room: this.room, from: this.movedFrom });
  }

  tellRoom() {
    this.broadcast(this.moveNote());
  }

  // A linked peer made a new room `room` because `from` was taken. Followed when `from` is the
  // room this page belongs in; when two pages made one each at once (same `from`), every page
  // goes to the smaller code, and a page told of the larger one answers with its own.
  onMeshRoom(link, message) {
    const { room, from } = message;
    const code = /^[2-9A-Z]{6}$/;
    this.note(`mesh-room ${room} from ${from}`);
    if (typeof room !== "string" || typeof from !== "string") return;
    if (!code.test(room) || !code.test(from) || room === this.room) return;
    const rival = from === this.movedFrom && from !== this.room;
    if (rival && room > this.room) this.send(link, this.moveNote());
    if (from !== this.room && !(rival && room < this.room)) return;
    this.movedFrom = from;
    this.room = room;
    this.rejoining = true;
    this.rejoin(); // now, after the answer in flight, or once the reconnect loop is through
  }

  // ----- ICE restarts -------------------------------------------------------------------

  checkIce(link) {
    const entry = this.peers.get(link);
    if (!entry || entry.iceTimer) return;
    entry.iceTimer = setTimeout(() => {
      entry.iceTimer = null;
      if (this.peers.get(link) !== entry) return;
      const state = entry.pc.iceConnectionState;
      if (state !== "disconnected" && state !== "failed") return;
      const lost = entry.lostSince && performance.now() - entry.lostSince > ORPHAN_MS;
      if (!entry.sid && lost) {
        this.forget(link); // gone from the server and unreachable: it left
        return;
      }
      if (entry.sid && this.ws && this.ws.readyState === 1) {
        if (entry.offerer) {
          this.restartIce(link).catch((error) =>
            this.emit("peer-error", { peer: link, message: String(error) }),
          );
        } else {
          this.signal(link, { restart: true }); // only the offering side restarts: ask it
        }
      }
      this.checkIce(link); // look again: the answer may not come, or signalling be away
    }, ICE_RESTART_MS);
  }

  async restartIce(link) {
    const entry = this.peers.get(link);
    const pc = entry.pc;
    if (pc.signalingState === "have-local-offer") {
      // an offer no answer came for (it may have gone into a dead socket): take it back
      if (performance.now() - (entry.offeredAt || 0) < 2 * ICE_RESTART_MS) return;
      await pc.setLocalDescription({ type: "rollback" });
    }
    if (pc.signalingState !== "stable") return;
    pc.setConfiguration(this.pcConfig()); // fresh TURN credentials from the last joined
    entry.restarts = (entry.restarts || 0) + 1;
    entry.offeredAt = performance.now();
    await pc.setLocalDescription(await pc.createOffer({ iceRestart: true }));
    this.signal(link, { sdp: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
  }

  ensurePeer(info) {
    let entry = this.peers.get(info.id);
    if (entry) return entry;
    const link = info.id;
    const pc = new RTCPeerConnection(this.pcConfig());
    entry = { pc, dc: null, pending: [], info, sid: info.id, offerer: false };
    entry.audio = entry.video = null;
    this.peers.set(link, entry);
    this.bySid.set(info.id, link);
    const mine = (handler) => (event) => {
      if (this.peers.get(link) === entry) handler(event);
    };
    pc.onicecandidate = mine((event) =>
      this.signal(link, { candidate: event.candidate ? event.candidate.toJSON() : null }),
    );
    pc.onconnectionstatechange = mine(() => this.emitState(link));
    pc.oniceconnectionstatechange = mine(() => this.checkIce(link));
    pc.ondatachannel = mine((event) => this.bindChannel(link, event.channel));
    pc.ontrack = mine((event) => this.onTrack(link, event.track));
    return entry;
  }

  async offer(info) {
    const entry = this.ensurePeer(info);
    const pc = entry.pc;
    entry.offerer = true;
    this.bindChannel(info.id, pc.createDataChannel("table", { ordered: true }));
    pc.addTransceiver("audio", { direction: "sendrecv" });
    pc.addTransceiver("video", { direction: "sendrecv" });
    await this.attachLocalTracks(pc);
    await pc.setLocalDescription(await pc.createOffer());
    const sdp = { type: pc.localDescription.type, sdp: pc.localDescription.sdp };
    this.signal(info.id, { sdp, fresh: true });
  }

  async onPeerSignal(from, data) {
    let link = this.bySid.get(from);
    if (link && data && data.fresh && this.peers.get(link).pc.remoteDescription) {
      // a new connection from a peer we had a link with (it reloaded): start over
      const info = this.peers.get(link).info;
      this.forget(link);
      this.bySid.set(from, from);
      link = from;
      this.ensurePeer({ ...info, id: from });
      this.emit("peer-joined", { type: "peer-joined", peer: { ...info, id: from } });
    }
    if (!link) {
      link = from;
      this.bySid.set(from, from);
    }
    const entry = this.peers.get(link) || this.ensurePeer({ id: from, name: "?", order: 0 });
    const pc = entry.pc;
    try {
      if (data && data.sdp) {
        entry.applying = true; // candidates arriving meanwhile wait for this description
        try {
          await pc.setRemoteDescription(data.sdp);
        } finally {
          entry.applying = false;
        }
        if (data.sdp.type === "offer") {
          for (const transceiver of pc.getTransceivers()) transceiver.direction = "sendrecv";
          await this.attachLocalTracks(pc);
          await pc.setLocalDescription(await pc.createAnswer());
          this.signal(link, { sdp: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
        }
        for (const candidate of entry.pending.splice(0)) await pc.addIceCandidate(candidate);
      } else if (data && data.restart) {
        if (entry.offerer) await this.restartIce(link);
      } else if (data && data.candidate) {
        if (pc.remoteDescription && !entry.applying) await pc.addIceCandidate(data.candidate);
        else entry.pending.push(data.candidate);
      }
    } catch (error) {
      this.emit("peer-error", { peer: link, message: String(error) });
    }
  }

  async attachLocalTracks(pc) {
    const mic = this.micStream ? this.micStream.getAudioTracks()[0] : null;
    for (const transceiver of pc.getTransceivers()) {
      const kind = transceiver.receiver.track.kind;
      const track = kind === "audio" ? mic : this.camTrack;
      if (track && transceiver.sender.track !== track) await transceiver.sender.replaceTrack(track);
    }
  }

  bindChannel(id, channel) {
    const entry = this.peers.get(id);
    if (!entry) return;
    entry.dc = channel;
    const mine = (handler) => (event) => {
      if (this.peers.get(id) === entry && entry.dc === channel) handler(event);
    };
    channel.onopen = mine(() => this.emitState(id));
    channel.onclose = mine(() => {
      if (!entry.sid) this.forget(id); // the server had already said it left
      else this.emitState(id);
    });
    channel.onmessage = mine((event) => this.onChannelMessage(id, event.data));
  }

  onChannelMessage(id, text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this.emit("peer-error", { peer: id, message: "malformed data-channel message" });
      return;
    }
    if (message && message.t === "ping") {
      this.send(id, JSON.stringify({ t: "pong", n: message.n, ts: message.ts }));
    } else if (message && message.t === "mesh-room") {
      this.onMeshRoom(id, message);
    } else if (message && message.t === "pong" && this.pings.has(message.n)) {
      this.pings.get(message.n)(performance.now() - message.ts);
      this.pings.delete(message.n);
    } else {
      this.emit("message", { peer: id, text });
    }
  }

  emitState(id) {
    const entry = this.peers.get(id);
    if (!entry) return;
    const open = entry.dc && entry.dc.readyState === "open";
    this.emit("peer-state", { peer: id, state: entry.pc.connectionState, channel: open });
  }

  onTrack(id, track) {
    const entry = this.peers.get(id);
    if (!entry) return;
    const stream = new MediaStream([track]);
    if (track.kind === "audio") {
      entry.audio = entry.audio || document.createElement("audio");
      entry.audio.autoplay = true;
      entry.audioTrack = track;
      // Played only while the peer's voice comes: a silent remote track kept playing holds the
      // page's audio output open and its receiver pulled every 10 ms (a constant hum of CPU).
      const audio = entry.audio;
      const play = () => { if (entry.audioTrack === track) audio.srcObject = stream; };
      track.onunmute = play;
      track.onmute = () => { if (entry.audioTrack === track) audio.srcObject = null; };
      if (!track.muted) play();
    } else {
      entry.video = entry.video || document.createElement("video");
      entry.video.autoplay = true;
      entry.video.muted = true;
      entry.video.playsInline = true;
      entry.video.srcObject = stream;
      // Shown only while the remote camera actually sends frames.
      track.onunmute = () => entry.video.classList.add("live");
      track.onmute = () => entry.video.classList.remove("live");
    }
    this.emit("media", { peer: id, kind: track.kind, element: entry[track.kind] });
  }

  dropPeer(id) {
    const entry = this.peers.get(id);
    if (!entry) return;
    this.peers.delete(id);
    if (entry.sid && this.bySid.get(entry.sid) === id) this.bySid.delete(entry.sid);
    clearTimeout(entry.iceTimer);
    entry.pc.close();
    for (const element of [entry.audio, entry.video]) if (element) element.remove();
  }

  send(id, text) {
    const entry = this.peers.get(id);
    if (!entry || !entry.dc || entry.dc.readyState !== "open") return false;
    entry.dc.send(text);
    return true;
  }

  broadcast(text) {
    let sent = 0;
    for (const id of this.peers.keys()) if (this.send(id, text)) sent += 1;
    return sent;
  }

  ping(id) {
    const n = ++this.pingCounter;
    return new Promise((resolve, reject) => {
      this.pings.set(n, resolve);
      if (!this.send(id, JSON.stringify({ t: "ping", n, ts: performance.now() }))) {
        this.pings.delete(n);
        reject(new Error("no open channel"));
      }
      setTimeout(() => {
        if (this.pings.delete(n)) reject(new Error("ping timed out"));
      }, PING_TIMEOUT_MS);
    });
  }

  async prepareMic() {
    if (!this.voice || this.micStream || !navigator.mediaDevices) return;
    try {
      this.micStream = await navigator.mediaDevices.getUserMedia({ audio: true });
      this.setMuted(this.muted);
    } catch (error) {
      this.emit("media-error", { kind: "audio", message: String(error) });
    }
  }

  setMuted(muted) {
    this.muted = muted;
    if (this.micStream) for (const track of this.micStream.getAudioTracks()) track.enabled = !muted;
  }

  async setCamera(on) {
    if (on && !this.camTrack) {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 320, height: 240 } });
      this.camTrack = stream.getVideoTracks()[0];
    } else if (!on && this.camTrack) {
      this.camTrack.stop();
      this.camTrack = null;
    }
    for (const entry of this.peers.values()) {
      for (const transceiver of entry.pc.getTransceivers()) {
        if (transceiver.receiver.track.kind === "video") {
          await transceiver.sender.replaceTrack(this.camTrack);
        }
      }
    }
    return this.camTrack;
  }

  async debug() {
    const result = {};
    for (const [id, entry] of this.peers) {
      const stats = await entry.pc.getStats();
      const inbound = {};
      stats.forEach((report) => {
        if (report.type === "inbound-rtp") inbound[report.kind] = report.bytesReceived;
      });
      const candidates = [];
      let pair = null;
      stats.forEach((report) => {
        if (report.type === "local-candidate") candidates.push(report.address + ":" + report.port);
        if (report.type === "transport" && report.selectedCandidatePairId) {
          const chosen = stats.get(report.selectedCandidatePairId);
          const local = chosen && stats.get(chosen.localCandidateId);
          const remote = chosen && stats.get(chosen.remoteCandidateId);
          pair = {
            local: local ? local.candidateType : "?",
            remote: remote ? remote.candidateType : "?",
          };
        }
      });
      result[id] = {
        name: entry.info.name,
        connection: entry.pc.connectionState,
        ice: entry.pc.iceConnectionState,
        channel: entry.dc ? entry.dc.readyState : "none",
        audioTrack: entry.audioTrack ? entry.audioTrack.readyState : "none",
        audioPlaying: Boolean(entry.audio && entry.audio.srcObject),
        inbound,
        candidates,
        pair,
        sid: entry.sid,
        restarts: entry.restarts || 0,
      };
    }
    return result;
  }
}
