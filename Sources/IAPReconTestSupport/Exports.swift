@_exported import IAPRecon
