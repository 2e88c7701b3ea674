"""Interface strings: Russian first (the games' language), English as the second choice."""

from __future__ import annotations

LANGUAGES = ("ru", "en")
# The language the page shows now (set where the page renders: the top bar, the table panel), and
# the ending of the card pictures' size for this screen ("@2x" beyond one pixel per point).
CURRENT = {"lang": "ru", "density": ""}


def use(lang: str) -> None:
    """Render in ``lang`` from now on (Russian for an unknown one)."""
    CURRENT["lang"] = lang if lang in LANGUAGES else "ru"


def use_screen(pixels_per_point: float) -> None:
    """Show card pictures at twice their size on a screen of more than one pixel per point."""
    CURRENT["density"] = "@2x" if pixels_per_point > 1 else ""


def current() -> str:
    return CURRENT["lang"]


def picture(url: str) -> str:
    """The bitmap of the card picture at ``url`` (``….svg``) with its words in the page's
    language and at the screen's size: ``….webp`` in Russian, ``….en.webp`` in English, each
    with ``@2x`` before the ``.webp`` on a dense screen (``web/assets/bitmaps.py`` draws them
    from the SVG; a page paints a new SVG picture on its main thread, a bitmap off it)."""
    stem = url.removesuffix(".svg") + (".en" if CURRENT["lang"] == "en" else "")
    return f"{stem}{CURRENT['density']}.webp"


def card_back() -> str:
    """The card back's bitmap at the screen's size (``web/assets/bitmaps.py``)."""
    return f"/art/card-back{CURRENT['density']}.webp"


def icon(name: str) -> str:
    """One of the table's icons (``art/ui/<name>.svg``) as a bitmap at the screen's size."""
    return f"/art/ui/{name}{CURRENT['density']}.webp"


def say(ru: str, en: str) -> str:
    """``ru`` or ``en``, as the page's current language asks."""
    return en if CURRENT["lang"] == "en" else ru


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
    "audit_ok": {"ru": "Проверка пройдена: все играли честно.", "en": "Audit passed: fair play."},
    "audit_failed": {"ru": "Проверка не пройдена.", "en": "Audit failed."},
    "audit_blame": {
        "ru": "Проверка не пройдена: виноват {who}.",
        "en": "Audit failed: {who} to blame.",
    },
    "log": {"ru": "Журнал", "en": "Log"},
    "sound": {"ru": "Звук", "en": "Sound"},
    "sound_off": {"ru": "Звук выключен", "en": "Sound off"},
    "sound_volume": {"ru": "Громкость эффектов", "en": "Effects volume"},
    "table_error": {"ru": "Не принято: {why}", "en": "Not accepted: {why}"},
    "pause": {"ru": "Пауза", "en": "Pause"},
    "resume": {"ru": "Продолжить", "en": "Resume"},
    "hurry": {"ru": "Поторопить", "en": "Hurry"},
    "crypto": {"ru": "Криптография", "en": "Crypto"},
    # ----- «Невермор» at the table (web/ui/nevermore_views.py) -----
    "nm_settings": {
        "ru": "3–6 игроков; до 6 ПО в облике человека.",
        "en": "3–6 players; 6 VP in human form wins.",
    },
    "nm_round": {"ru": "Раунд {n}", "en": "Round {n}"},
    "nm_dealer": {"ru": "раздаёт {name}", "en": "{name} deals"},
    "nm_dir_left": {"ru": "передача налево →", "en": "passing left →"},
    "nm_dir_right": {"ru": "передача направо ←", "en": "passing right ←"},
    "nm_deals": {"ru": "раздаёт", "en": "dealer"},
    "nm_raven": {"ru": "ворон", "en": "raven"},
    "nm_passes_to": {"ru": "передаёт → {name}", "en": "passes → {name}"},
    "nm_health": {"ru": "здоровье {hp} из {max}", "en": "health {hp} of {max}"},
    "nm_vp": {"ru": "ПО", "en": "VP"},
    "nm_cards": {"ru": "карт: {hand} · магии: {magic}", "en": "cards: {hand} · magic: {magic}"},
    "nm_killed": {"ru": "уничтожено: {n}", "en": "destroyed: {n}"},
    "nm_tokens": {"ru": "Жетоны Раскрытия", "en": "Resolution tokens"},
    "nm_token_hidden": {"ru": "жетон лицом вниз", "en": "face-down token"},
    "nm_called": {"ru": "Названа масть: {suit}", "en": "Called suit: {suit}"},
    "nm_nobody": {"ru": "ни у кого нет", "en": "nobody has any"},
    "nm_wait": {"ru": "Ждём: {names}", "en": "Waiting for: {names}"},
    "nm_hand": {"ru": "Ваши карты", "en": "Your cards"},
    "nm_magic": {"ru": "Ваша магия", "en": "Your magic"},
    "nm_look": {"ru": "Вы видите", "en": "You see"},
    "nm_received": {"ru": "получена", "en": "received"},
    "nm_doomed": {"ru": "уничтожит ворон", "en": "a raven destroys it"},
    "nm_pass_title": {
        "ru": "Передайте {cards} игроку {name}: выберите их в руке и подтвердите.",
        "en": "Pass {cards} to {name}: pick them in your hand, then confirm.",
    },
    "nm_pass_more": {"ru": "Выберите ещё {n}", "en": "Pick {n} more"},
    "nm_pass_confirm": {"ru": "Передать: {cards}", "en": "Pass: {cards}"},
    "nm_seal_title": {
        "ru": "Вороны уничтожают карты других мастей. Что уничтожить?",
        "en": "Ravens destroy cards of other suits. Which ones?",
    },
    "nm_seal_none": {"ru": "Ничего не уничтожать", "en": "Destroy nothing"},
    "nm_seal_doom": {"ru": "Уничтожить: {cards}", "en": "Destroy: {cards}"},
    "nm_seal_order": {"ru": "порядок жетонов: {order}", "en": "token order: {order}"},
    "nm_window_title": {"ru": "{window}: сыграть карту магии?", "en": "{window}: play magic?"},
    "nm_pass": {"ru": "Пас", "en": "Pass"},
    "nm_play": {"ru": "Сыграть «{name}»", "en": "Play «{name}»"},
    "nm_window_rescue": {
        "ru": "Смертельный удар (спасение)",
        "en": "Lethal damage (a rescue)",
    },
    "nm_window_damaged": {
        "ru": "Противник наносит урон",
        "en": "An opponent deals damage",
    },
    "nm_your_move": {"ru": "Ваш ход.", "en": "Your move."},
    "nm_open": {"ru": "Раскрыть карты", "en": "Open the cards"},
    "nm_yes_peck": {"ru": "Клюнуть", "en": "Peck"},
    "nm_no_peck": {"ru": "Не клевать", "en": "Do not peck"},
    "nm_all": {"ru": "Всех (по 1 урона, +2 ПО)", "en": "Everyone (1 damage each, +2 VP)"},
    "nm_nothing": {"ru": "Ничего", "en": "Nothing"},
    "nm_pay_none": {"ru": "Не платить", "en": "Do not pay"},
    "nm_pay_hp": {"ru": "Заплатить 1 здоровьем", "en": "Pay 1 health"},
    "nm_pay_vp": {"ru": "Заплатить 1 ПО", "en": "Pay 1 VP"},
    "nm_card": {"ru": "карта", "en": "card"},
    "nm_choose_attack": {"ru": "Кого атаковать?", "en": "Whom to attack?"},
    "nm_choose_betrayed_attack": {
        "ru": "Атака обращена: кого вылечить?",
        "en": "Attack reversed: whom to heal?",
    },
    "nm_choose_steal": {"ru": "У кого забрать карту?", "en": "Whose card to take?"},
    "nm_choose_peck": {"ru": "Вы — ворон-лидер. Клюнуть?", "en": "You lead as a raven. Peck?"},
    "nm_choose_add_raven": {
        "ru": "К чьим картам добавить Ворона?",
        "en": "Whose cards get the Raven?",
    },
    "nm_choose_brilliance": {"ru": "Сбросить Ворона из руки?", "en": "Discard a Raven?"},
    "nm_choose_foretell": {"ru": "Какую масть предсказать?", "en": "Which suit to foretell?"},
    "nm_choose_discard_pick": {"ru": "Какую карту сбросить?", "en": "Which card to discard?"},
    "nm_choose_acquire": {
        "ru": "У кого взять случайную карту?",
        "en": "Whom to take a random card from?",
    },
    "nm_choose_nightmare": {"ru": "Кого выбрать для «Ночного кошмара»?", "en": "Nightmare: whom?"},
    "nm_choose_scrye": {
        "ru": "Видение: заплатить, чтобы выбрать порядок жетонов?",
        "en": "Scrye: pay to choose the token order?",
    },
    "nm_choose_blooding": {
        "ru": "Кровотечение: кому добавить очко повреждений?",
        "en": "Blooding: who takes the extra damage?",
    },
    "nm_choose_spite": {"ru": "Кому нанести повреждение («Злоба»)?", "en": "Spite: whom?"},
    "nm_choose_summon": {"ru": "Какую карту оставить?", "en": "Which card to keep?"},
    "nm_choose_tax": {"ru": "Какую карту магии забрать?", "en": "Which magic card to take?"},
    "nm_summary_win": {"ru": "Победа — {name}", "en": "{name} wins"},
    "nm_summary_none": {"ru": "Победителя нет", "en": "No winner"},
    "nm_player": {"ru": "Игрок", "en": "Player"},
    "nm_form": {"ru": "Облик", "en": "Form"},
    "nm_human": {"ru": "человек", "en": "human"},
    "nm_health_short": {"ru": "Здоровье", "en": "Health"},
}


def tr(key: str, lang: str, **values: str) -> str:
    """The string ``key`` in ``lang`` (Russian when missing), with ``{name}`` slots filled."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["ru"]
    return text.format(**values) if values else text
