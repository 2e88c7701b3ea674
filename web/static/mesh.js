// The WebRTC glue the browser demands: signalling socket, one RTCPeerConnection per peer,
// the "table" data channel, microphone and camera. Everything else (chat, roster, the game)
// is Python; this module only reports events to it through `onEvent(type, detail)`.
// Wire protocol: docs/signaling.md.

const PING_TIMEOUT_MS = 5000;

export class Mesh {
  constructor({ url, iceServers, onEvent, voice = true }) {
    this.url = url;
    this.iceServers = iceServers || [];
    this.onEvent = onEvent;
    this.voice = voice;
    this.ws = null;
    this.you = null;
    this.room = null;
    this.peers = new Map(); // id -> {pc, dc, pending, info, audio, video}
    this.micStream = null;
    this.camTrack = null;
    this.muted = false;
    this.pings = new Map(); // n -> resolve
    this.pingCounter = 0;
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
    this.ws = new WebSocket(this.url);
    await new Promise((resolve, reject) => {
      this.ws.onopen = resolve;
      this.ws.onerror = () => reject(new Error("signalling server unreachable"));
    });
    this.ws.onmessage = (event) => this.onSignal(JSON.parse(event.data));
    this.ws.onclose = () => this.emit("server-closed", {});
  }

  async start(request) {
    await this.prepareMic();
    await this.connect();
    this.ws.send(JSON.stringify(request));
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
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "leave" }));
    for (const id of [...this.peers.keys()]) this.dropPeer(id);
    if (this.ws) this.ws.close();
  }

  addBot() {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "add-bot" }));
  }

  signal(to, data) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify({ type: "signal", to, data }));
    }
  }

  async onSignal(message) {
    switch (message.type) {
      case "joined":
        this.you = message.you;
        this.room = message.room;
        this.emit("joined", message);
        for (const peer of message.roster) {
          if (peer.id !== this.you) await this.offer(peer);
        }
        break;
      case "peer-joined":
        this.ensurePeer(message.peer);
        this.emit("peer-joined", message);
        break;
      case "peer-left":
        this.dropPeer(message.peer);
        this.emit("peer-left", message);
        break;
      case "signal":
        await this.onPeerSignal(message.from, message.data);
        break;
      default:
        this.emit(message.type, message);
    }
  }

  ensurePeer(info) {
    let entry = this.peers.get(info.id);
    if (entry) return entry;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    entry = { pc, dc: null, pending: [], info, audio: null, video: null };
    this.peers.set(info.id, entry);
    pc.onicecandidate = (event) =>
      this.signal(info.id, { candidate: event.candidate ? event.candidate.toJSON() : null });
    pc.onconnectionstatechange = () => this.emitState(info.id);
    pc.ondatachannel = (event) => this.bindChannel(info.id, event.channel);
    pc.ontrack = (event) => this.onTrack(info.id, event.track);
    return entry;
  }

  async offer(info) {
    const entry = this.ensurePeer(info);
    const pc = entry.pc;
    this.bindChannel(info.id, pc.createDataChannel("table", { ordered: true }));
    pc.addTransceiver("audio", { direction: "sendrecv" });
    pc.addTransceiver("video", { direction: "sendrecv" });
    await this.attachLocalTracks(pc);
    await pc.setLocalDescription(await pc.createOffer());
    this.signal(info.id, { sdp: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
  }

  async onPeerSignal(from, data) {
    const entry = this.peers.get(from) || this.ensurePeer({ id: from, name: "?", order: 0 });
    const pc = entry.pc;
    try {
      if (data && data.sdp) {
        await pc.setRemoteDescription(data.sdp);
        if (data.sdp.type === "offer") {
          for (const transceiver of pc.getTransceivers()) transceiver.direction = "sendrecv";
          await this.attachLocalTracks(pc);
          await pc.setLocalDescription(await pc.createAnswer());
          this.signal(from, { sdp: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
        }
        for (const candidate of entry.pending.splice(0)) await pc.addIceCandidate(candidate);
      } else if (data && data.candidate) {
        if (pc.remoteDescription) await pc.addIceCandidate(data.candidate);
        else entry.pending.push(data.candidate);
      }
    } catch (error) {
      this.emit("peer-error", { peer: from, message: String(error) });
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
    channel.onopen = () => this.emitState(id);
    channel.onclose = () => this.emitState(id);
    channel.onmessage = (event) => this.onChannelMessage(id, event.data);
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
      entry.audio.srcObject = stream;
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
      stats.forEach((report) => {
        if (report.type === "local-candidate") candidates.push(report.address + ":" + report.port);
      });
      result[id] = {
        name: entry.info.name,
        connection: entry.pc.connectionState,
        ice: entry.pc.iceConnectionState,
        channel: entry.dc ? entry.dc.readyState : "none",
        audioTrack: entry.audio ? entry.audio.srcObject.getAudioTracks()[0].readyState : "none",
        inbound,
        candidates,
      };
    }
    return result;
  }
}
