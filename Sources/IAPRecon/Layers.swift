// The composition root re-exports the layers it composes: the executable, the support web view, the simulator and
// the demo import `IAPRecon` alone. Inside, each layer imports only the layers below it (Package.swift).
@_exported import AppleData
@_exported import ReconFindings
@_exported import ReconImport
@_exported import ReconLookup
@_exported import ReconModel
@_exported import ReconReports
@_exported import ReconStorage
@_exported import ReconVerify
