/// Seconds from each harmony phrase's start to its last note-off (`GameSong.phrases()`), computed once.
enum HarmonyPhraseLengths {
    static let all = GameSong.phrases().map(\.end)
}
