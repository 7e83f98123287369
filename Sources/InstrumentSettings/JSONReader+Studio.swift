import Horatio

extension JSONReader.Limits {
    /// What one client message may be: 16 KiB (a control message is ~100 bytes; room for any hello),
    /// 16 levels of nesting, 256 members per object or array, no repeated key.
    public static let studioMessage = JSONReader.Limits(
        maximumBytes: 16 * 1024, maximumDepth: 16, maximumMembers: 256, rejectsDuplicateKeys: true
    )
}
