import CLV2
import ProsperoLV2

// The C-ABI edge: `lv2_descriptor` and the descriptor callbacks, each forwarding to the portable
// `LV2Plugin` instance behind the handle. Nothing here allocates in `run`: the handle is an unretained
// reference and `run` is a class method call.

/// The descriptors, one per `LV2Catalog.plugins` entry, built once and never freed (hosts keep pointers).
nonisolated(unsafe) let descriptors: UnsafeMutableBufferPointer<CLV2Descriptor> = {
    let plugins = LV2Catalog.plugins
    let table = UnsafeMutableBufferPointer<CLV2Descriptor>.allocate(capacity: plugins.count)
    for (i, type) in plugins.enumerated() {
        let withState = type.info.stateKey != nil
        table[i] = CLV2Descriptor(
            URI: UnsafePointer(strdupC(type.info.uri)),
            instantiate: { descriptor, rate, _, features in instantiate(descriptor, rate, features) },
            connect_port: { handle, port, data in plugin(handle).connect(port: Int(port), to: data) },
            activate: { handle in plugin(handle).activate() },
            run: { handle, count in plugin(handle).run(frameCount: Int(count)) },
            deactivate: { _ in },
            cleanup: { handle in
                guard let handle else { return }
                Unmanaged<LV2Plugin>.fromOpaque(handle).release()
            },
            extension_data: withState ? stateExtensionData : noExtensionData)
    }
    return table
}()

@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<CLV2Descriptor>? {
    guard Int(index) < descriptors.count, let base = descriptors.baseAddress else { return nil }
    return UnsafePointer(base + Int(index))
}

@inline(__always)
func plugin(_ handle: CLV2Handle?) -> LV2Plugin {
    Unmanaged<LV2Plugin>.fromOpaque(handle!).takeUnretainedValue()
}

func strdupC(_ text: String) -> UnsafeMutablePointer<CChar> {
    let bytes = Array(text.utf8CString)
    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    copy.initialize(from: bytes, count: bytes.count)
    return copy
}

func equalC(_ a: UnsafePointer<CChar>?, _ b: String) -> Bool {
    guard let a else { return false }
    return String(cString: a) == b
}

let uridMapURI = "http://lv2plug.in/ns/ext/urid#map"
let stateInterfaceURI = "http://lv2plug.in/ns/ext/state#interface"

func instantiate(
    _ descriptor: UnsafePointer<CLV2Descriptor>?, _ rate: Double, _ features: UnsafePointer<UnsafePointer<CLV2Feature>?>?
) -> CLV2Handle? {
    guard let descriptor, let base = descriptors.baseAddress else { return nil }
    let index = descriptor - UnsafePointer(base)
    guard index >= 0, index < descriptors.count, LV2Plugin.sampleRates.contains(rate) else { return nil }
    var map: UnsafeMutablePointer<CLV2URIDMap>?
    var cursor = features
    while let feature = cursor?.pointee {
        if equalC(feature.pointee.URI, uridMapURI) { map = feature.pointee.data?.assumingMemoryBound(to: CLV2URIDMap.self) }
        cursor = cursor! + 1
    }
    guard let map, let mapFunction = map.pointee.map else { return nil }
    let type = LV2Catalog.plugins[index]
    let uris = LV2URIDs(stateKey: type.info.stateKey) { uri in uri.withCString { mapFunction(map.pointee.handle, $0) } }
    let instance = type.init(sampleRate: rate, uris: uris)
    return Unmanaged.passRetained(instance).toOpaque()
}

/// The State interface (save and restore the plugin's string under its State key).
nonisolated(unsafe) let stateInterface: UnsafeMutablePointer<CLV2StateInterface> = {
    let p = UnsafeMutablePointer<CLV2StateInterface>.allocate(capacity: 1)
    p.initialize(to: CLV2StateInterface(
        save: { handle, store, storeHandle, _, _ in
            let instance = plugin(handle)
            guard let store, instance.uris.stateKey != 0 else { return UInt32(CLV2_STATE_ERR_UNKNOWN) }
            guard let text = instance.saveState() else { return UInt32(CLV2_STATE_SUCCESS) }
            let bytes = Array(text.utf8CString)
            return bytes.withUnsafeBytes { raw in
                store(storeHandle, instance.uris.stateKey, raw.baseAddress, raw.count, instance.uris.atomString,
                      UInt32(CLV2_STATE_IS_POD | CLV2_STATE_IS_PORTABLE))
            }
        },
        restore: { handle, retrieve, retrieveHandle, _, _ in
            let instance = plugin(handle)
            guard let retrieve else { return UInt32(CLV2_STATE_ERR_UNKNOWN) }
            var size = 0
            var type: UInt32 = 0
            var flags: UInt32 = 0
            guard let value = retrieve(retrieveHandle, instance.uris.stateKey, &size, &type, &flags) else {
                return UInt32(CLV2_STATE_ERR_NO_PROPERTY)
            }
            guard type == instance.uris.atomString else { return UInt32(CLV2_STATE_ERR_BAD_TYPE) }
            let bytes = UnsafeRawBufferPointer(start: value, count: size).prefix { $0 != 0 }
            return instance.restoreState(String(decoding: bytes, as: UTF8.self))
                ? UInt32(CLV2_STATE_SUCCESS) : UInt32(CLV2_STATE_ERR_UNKNOWN)
        }))
    return p
}()

/// `extension_data` of a plugin with State: the State interface.
let stateExtensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { uri in
    equalC(uri, stateInterfaceURI) ? UnsafeRawPointer(stateInterface) : nil
}

/// `extension_data` of a plugin without extensions.
let noExtensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { _ in nil }
