using System;
using System.IO;

namespace CoarseTimers.AnalyzerHost.Tests;

/// <summary>A test that lays out project files in a folder of its own, deleted after it.</summary>
public abstract class TemporaryFolderTest : IDisposable
{
    protected TemporaryFolderTest(string prefix) => Root = Directory.CreateTempSubdirectory(prefix).FullName;

    protected string Root { get; }

    public void Dispose()
    {
        Directory.Delete(Root, recursive: true);
        GC.SuppressFinalize(this);
    }
}
