using System;
using System.Collections.Generic;

// The built-in datasets' native types (datasets/*/types.json), written the way a .NET
// developer of the seed's era wrote them: [Serializable] classes with public auto-properties
// and no serializer-specific attributes. S5's pairs are KeyValuePair<string, string>, the
// seed's type, whose read-only Key/Value XmlSerializer cannot set on the way back.
namespace Serbench.Model
{
    [Serializable]
    public enum Gender
    {
        Female = 0,
        Male = 1,
    }

    [Serializable]
    public class SampleData
    {
        public long id { get; set; }
        public string name { get; set; }
        public int age { get; set; }
        public Gender gender { get; set; }
        public bool isMegane { get; set; }
    }

    [Serializable]
    public class Test1
    {
        public uint a { get; set; }
        public uint b { get; set; }
    }

    [Serializable]
    public class Test2
    {
        public int a { get; set; }
        public int b { get; set; }
    }

    [Serializable]
    public class Test3
    {
        public string s { get; set; }
    }

    [Serializable]
    public class Test4
    {
        public Test1 t1 { get; set; }
        public Test2 t2 { get; set; }
        public Test3 t3 { get; set; }
    }

    [Serializable]
    public class Viewport
    {
        public int width { get; set; }
        public int height { get; set; }
    }

    [Serializable]
    public class Click
    {
        public int x { get; set; }
        public int y { get; set; }
        public int count { get; set; }
        public long lastClick { get; set; }
        public string selector { get; set; }
    }

    [Serializable]
    public class ClickMap
    {
        public string url { get; set; }
        public string day { get; set; }
        public Viewport viewport { get; set; }
        public Dictionary<string, Click> clicks { get; set; }
    }

    [Serializable]
    public class TestClass
    {
        public string MyProperty1 { get; set; }
        public int MyProperty2 { get; set; }
        public DateTime MyProperty3 { get; set; }
        public bool MyProperty4 { get; set; }
        public List<KeyValuePair<string, string>> MyProperty5 { get; set; }
    }
}
