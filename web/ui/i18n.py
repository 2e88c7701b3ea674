"""Interface strings: Russian first (the games' language), English as the second choice."""

from __future__ import annotations

LANGUAGES = ("ru", "en")

STRINGS: dict[str, dict[str, str]] = {
    "tagline": {
        "ru": "Колдуйте с друзьями прямо в браузере: без сервера, который видит ваши карты.",
        "en": "Cast spells with friends right in the browser: no server ever sees your cards.",
    },
    "your_name": {"ru": "Ваше имя", "en": "Your name"},
    "create": {"ru": "Создать комнату", "en": "Create a room"},
    "join": {"ru": "Войти", "en": "Join"},
    "room_code": {"ru": "Код комнаты", "en": "Room code"},
    "as_player": {"ru": "Игрок", "en": "Player"},
    "as_spectator": {"ru": "Зритель", "en": "Spectator"},
    "room": {"ru": "Комната", "en": "Room"},
    "copy_link": {"ru": "Скопировать ссылку", "en": "Copy link"},
    "copied": {"ru": "Ссылка скопирована", "en": "Link copied"},
    "copy_failed": {"ru": "Не удалось скопировать", "en": "Could not copy"},
    "players": {"ru": "За столом", "en": "At the table"},
    "you": {"ru": "вы", "en": "you"},
    "host": {"ru": "ведущий", "en": "host"},
    "seat": {"ru": "место", "en": "seat"},
    "spectator": {"ru": "зритель", "en": "spectator"},
    "state_connecting": {"ru": "соединяемся…", "en": "connecting…"},
    "state_connected": {"ru": "на связи", "en": "connected"},
    "state_failed": {"ru": "нет связи", "en": "no connection"},
    "state_disconnected": {"ru": "связь прервалась", "en": "connection lost"},
    "chat": {"ru": "Чат", "en": "Chat"},
    "say": {"ru": "Написать всем…", "en": "Message everyone…"},
    "send": {"ru": "Отправить", "en": "Send"},
    "mute": {"ru": "Выключить микрофон", "en": "Mute"},
    "unmute": {"ru": "Включить микрофон", "en": "Unmute"},
    "camera_on": {"ru": "Включить камеру", "en": "Camera on"},
    "camera_off": {"ru": "Выключить камеру", "en": "Camera off"},
    "leave": {"ru": "Выйти", "en": "Leave"},
    "volume": {"ru": "Громкость", "en": "Volume"},
    "joined_notice": {"ru": "{name} садится за стол", "en": "{name} joined"},
    "left_notice": {"ru": "{name} покидает комнату", "en": "{name} left"},
    "dropped_notice": {"ru": "Связь с {name} потеряна", "en": "Lost connection to {name}"},
    "host_notice": {"ru": "Ведущий теперь {name}", "en": "{name} is now the host"},
    "server_closed": {
        "ru": "Сервер знакомств недоступен; стол продолжает работать напрямую.",
        "en": "The signalling server is gone; the table goes on peer to peer.",
    },
    "no_mic": {"ru": "Микрофон недоступен: голос выключен.", "en": "No microphone: voice is off."},
    "no_camera": {"ru": "Камера недоступна.", "en": "No camera available."},
    "name_needed": {"ru": "Введите имя.", "en": "Enter a name."},
    "code_needed": {"ru": "Введите код комнаты.", "en": "Enter the room code."},
    "rejoining": {"ru": "Возвращаемся в комнату {code}…", "en": "Rejoining room {code}…"},
    "bad_peer_message": {
        "ru": "Сообщение от {name} отклонено: {why}",
        "en": "Message from {name} rejected: {why}",
    },
    "settings": {"ru": "Настройки связи", "en": "Connection settings"},
    "ice_servers": {
        "ru": "ICE-серверы (JSON: STUN/TURN)",
        "en": "ICE servers (JSON: STUN/TURN)",
    },
    "save": {"ru": "Сохранить", "en": "Save"},
    "saved": {"ru": "Сохранено", "en": "Saved"},
    "bad_ice": {"ru": "Нужен JSON-список серверов.", "en": "A JSON list of servers is needed."},
    "voice": {"ru": "Голос", "en": "Voice"},
    "qr_alt": {"ru": "QR-код ссылки на комнату", "en": "QR code of the room link"},
    "err_no-room": {"ru": "Такой комнаты нет.", "en": "No such room."},
    "err_room-full": {"ru": "Комната заполнена.", "en": "The room is full."},
    "err_name-taken": {"ru": "Это имя уже занято.", "en": "That name is taken."},
    "err_bad-name": {"ru": "Недопустимое имя.", "en": "That name is not allowed."},
    "err_join-rate-limit": {
        "ru": "Слишком много попыток входа, подождите минуту.",
        "en": "Too many join attempts; wait a minute.",
    },
    "err_unreachable": {
        "ru": "Сервер знакомств недоступен.",
        "en": "The signalling server is unreachable.",
    },
    "err_other": {"ru": "Ошибка: {message}", "en": "Error: {message}"},
    "table": {"ru": "Игровой стол", "en": "Game table"},
    "add_bot": {"ru": "Добавить бота", "en": "Add a bot"},
    "catalog": {"ru": "Каталог", "en": "Catalog"},
    "rules": {"ru": "Правила", "en": "Rules"},
    "ready": {"ru": "Я готов", "en": "I'm ready"},
    "not_ready": {"ru": "Ещё не готов", "en": "Not ready yet"},
    "pick_hero": {
        "ru": "Герой для «Схватки» (только внешность):",
        "en": "Hero for «Rumble» (looks only):",
    },
    "mode": {"ru": "Режим", "en": "Mode"},
    "next_game": {"ru": "Следующая игра", "en": "Next game"},
    "fights": {"ru": "Схваток в турнире", "en": "Fights in a tournament"},
    "assembly_timer": {"ru": "Таймер сборки, с", "en": "Assembly timer, s"},
    "all_ready_first": {
        "ru": "Начать можно, когда все игроки готовы.",
        "en": "You can start once every player is ready.",
    },
    "bot_added": {
        "ru": "{name} садится за стол: бот на сервере, видит только свои карты.",
        "en": "{name} joins: a server bot that sees only its own cards.",
    },
    "err_not-host": {"ru": "Это может только ведущий.", "en": "Only the host can do that."},
    "err_bots-disabled": {"ru": "Этот сервер не запускает ботов.", "en": "No bots on this server."},
    "err_too-many-bots": {"ru": "Больше ботов нельзя.", "en": "No more bots."},
    "game": {"ru": "Игра", "en": "Game"},
    "timer": {"ru": "Таймер выбора, с", "en": "Choice timer, s"},
    "start_game": {"ru": "Начать игру", "en": "Start the game"},
    "wait_host": {
        "ru": "Ждём, пока ведущий начнёт игру.",
        "en": "Waiting for the host to start a game.",
    },
    "stage_new": {"ru": "Стол открыт", "en": "Table open"},
    "stage_chains": {"ru": "Договариваемся о случайности", "en": "Agreeing on randomness"},
    "stage_shuffle1": {"ru": "Тасуем колоду (1)", "en": "Shuffling (1)"},
    "stage_shuffle2": {"ru": "Тасуем колоду (2)", "en": "Shuffling (2)"},
    "stage_play": {"ru": "Идёт игра", "en": "Playing"},
    "stage_audit": {"ru": "Проверка честности", "en": "Fairness audit"},
    "stage_done": {"ru": "Игра окончена", "en": "Game over"},
    "stage_halted": {"ru": "Игра остановлена", "en": "Game stopped"},
    "paused": {"ru": "пауза", "en": "paused"},
    "entries": {"ru": "записей в журнале: {n}", "en": "log entries: {n}"},
    "audit_ok": {"ru": "Проверка пройдена: все играли честно.", "en": "Audit passed: fair play."},
    "audit_failed": {"ru": "Проверка не пройдена.", "en": "Audit failed."},
    "pause": {"ru": "Пауза", "en": "Pause"},
    "resume": {"ru": "Продолжить", "en": "Resume"},
    "hurry": {"ru": "Поторопить", "en": "Hurry"},
    "crypto": {"ru": "Криптография", "en": "Crypto"},
}


def tr(key: str, lang: str, **values: str) -> str:
    """The string ``key`` in ``lang`` (Russian when missing), with ``{name}`` slots filled."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["ru"]
    return text.format(**values) if values else text
